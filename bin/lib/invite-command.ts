// `invite`: from a roster to personal links and the mail-merge list.
import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Document, parseDocument } from 'yaml';
import type { Context } from './results-commands.ts';
import { who } from './results-commands.ts';
import { prepopulationFile, privateDir } from '../../src/survey/config/loader.ts';
import { appendAudit } from '../../src/server/db/audit.repository.ts';
import { greetingName, parseRoster, personalLink, planInvitations } from '../../src/results/voters/roster.ts';
import { stageFile, type StagedFile } from '../../src/results/export/staged-file.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { newSecret } from '../../src/server/tokens.ts';
import { readServerConfig } from '../../src/server/config.ts';
import { peopleSource, peopleSourceDigest } from '../../src/server/people/people-import.ts';
import { peopleKey, replacePeople } from '../../src/server/people/people.repository.ts';
import { openOutput } from './output.ts';
import { quoted } from '../../src/survey/errors.ts';
import { readPersonMapYaml, writePersonMapYaml } from '../../src/survey/people/person-map-yaml.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * The prepopulation file's new text: the file on disk edited in place (people removed, changed
 * or added), so that the comments an operator wrote there stay, or a new file under `header`.
 * Exported only so its unit test can check it directly; the product reaches it through the invite command.
 * @internal
 */
export function prepopulationText(file: string, map: Record<string, Record<string, unknown>>, header: string): string {
  const source = existsSync(file) ? readFileSync(file, 'utf8') : '';
  // A file with no comment but its opening lines (invite's own shape) is written anew, in a blink.
  const opening = /^(?:#.*\n)*/.exec(source)![0];
  if (!source || (!source.slice(opening.length).includes('#') && readPersonMapYaml(source))) {
    const fast = writePersonMapYaml(map, opening || header);
    if (fast !== undefined) return fast;
  }
  const document = source ? parseDocument(source) : new Document({});
  if (!document.contents) document.contents = document.createNode({});
  // A file that opens with a comment has its header already (invite's, or the operator's own).
  if (!source.trimStart().startsWith('#')) document.commentBefore = header.replace(/^# ?/gm, ' ').trimEnd();
  const before = (document.toJSON() ?? {}) as Record<string, unknown>;
  for (const secret of Object.keys(before)) if (!Object.hasOwn(map, secret)) document.delete(secret);
  for (const [secret, person] of Object.entries(map)) {
    if (!Object.hasOwn(before, secret) || !isDeepStrictEqual(before[secret], person)) document.set(secret, document.createNode(person));
  }
  return document.toString();
}

/** The site's address for personal links: `--base-url`, else `PEERVOTE_BASE_URL`, else `npm start`'s. */
export function baseUrl(options: Context['options']): string {
  const url = text(options['base-url']) ?? process.env.PEERVOTE_BASE_URL ?? 'http://127.0.0.1:4321';
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new OperatorError(`--base-url must be the site's address, such as https://vote.example.com, got ${quoted(url)}.`);
  return url;
}

/**
 * Reads the roster, gives each new person a secret (existing people keep theirs, matched by
 * address), writes the survey's people (the database's `people` table and the prepopulation
 * file, its export) and the list `name,email,url`; reports who
 * was added, updated, unchanged and missing on standard error. Nothing is written on a bad roster.
 */
export async function inviteCommand({ db, survey, nominees, prepopulation, options }: Context): Promise<void> {
  const rosterPath = text(options.roster);
  if (!rosterPath) throw new OperatorError(`invite needs --roster FILE, a CSV of the people to invite (email required).`);
  if (typeof survey.config.prepopulation !== 'string') {
    throw new OperatorError(
      `invite writes the personal links to a file: set "prepopulation: prepopulation.yaml" in ${survey.slug}/survey.yaml${survey.config.prepopulation ? ' and move the map there' : ''}.`,
    );
  }
  const url = baseUrl(options);
  let roster: string;
  try {
    roster = readFileSync(rosterPath, 'utf8');
  } catch (error) {
    throw new OperatorError(`Cannot read the roster ${rosterPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  const ids = new Set(nominees.map((nominee) => nominee.id));
  const people = parseRoster(rosterPath, roster, survey.config, nominees.length ? (id) => ids.has(id) : undefined);
  const plan = planInvitations(people, prepopulation, survey.config, { removeMissing: Boolean(options['remove-missing']), newSecret });

  const file = prepopulationFile(survey, privateDir() !== undefined);
  const header = `# Personal links of ${survey.slug}: secret → that person's prepopulated answers. Written by\n# npm run results -- invite; personal data: keep it out of git and out of the build.\n`;
  let links = csvLine(['name', 'email', 'url']);
  for (const secret of plan.rosterSecrets) {
    const person = plan.map[secret];
    links += csvLine([greetingName(person, survey.config), person.email as string, personalLink(url, survey.slug, secret)]);
  }
  const written = prepopulationText(file, plan.map, header);
  const staged: StagedFile[] = [stageFile(file, written)];
  const key = peopleKey(readServerConfig());
  const out = text(options.out);
  try {
    if (out) staged.push(stageFile(out, links));
    const removed = options['remove-missing'] ? plan.missing.length : 0;
    await db.transaction().execute(async (trx) => {
      await appendAudit(trx, {
        projectId: survey.config.project_id,
        actor: who(options),
        action: 'invite',
        reason: text(options.why),
        details: {
          added: plan.added.length,
          updated: plan.updated.length,
          unchanged: plan.unchanged.length,
          missing: plan.missing.length,
          removed,
          people: Object.keys(plan.map).length,
        },
      });
      // The people in the database with the digest of the file's text: the API finds the new links at
      // once and never reads the file again for them.
      const digest = peopleSourceDigest(survey.config, written);
      await replacePeople(trx, survey.config.project_id, [plan.map], peopleSource(survey.config, digest, key, new Date()));
      // Renamed into place inside the transaction: a file that cannot be put in place rolls the people and the entry back.
      for (const one of staged) one.commit();
    });
  } finally {
    for (const one of staged) one.discard();
  }
  if (!out) {
    const output = openOutput(undefined);
    await output.write(links);
    await output.close();
  }
  const missing = plan.missing.length
    ? options['remove-missing']
      ? `, ${plan.missing.length} removed (on file but not on the roster)`
      : `, ${plan.missing.length} on file but not on the roster (kept; --remove-missing removes them)`
    : '';
  process.stderr.write(`invite: ${plan.added.length} added, ${plan.updated.length} updated, ${plan.unchanged.length} unchanged${missing}.\n`);
  process.stderr.write(`Personal links written to ${file}${out ? `; the mailing list to ${out}` : ''}.\n`);
}
