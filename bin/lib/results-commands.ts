// The commands of `npm run results`: each takes its parsed options and does one job.
import { userInfo } from 'node:os';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import type { LoadedSurvey } from '../../src/survey/config/loader.ts';
import type { Nominee } from '../../src/survey/nominees/nominee.struct.ts';
import type { PersonValues } from '../../src/survey/config/config.struct.ts';
import { exportBallots, type ExportFormat } from '../../src/results/export/export.ts';
import { countBallots } from '../../src/results/ballots/ballots.repository.ts';
import { countSurvey } from '../../src/results/tally/survey-count.ts';
import { EXCLUSION_COLUMNS, exclusionCsvLine, parseThreshold, tallySummary } from '../../src/results/tally/tally-report.ts';
import { tallyDigest } from '../../src/results/tally/tally-digest.ts';
import { methodologyText } from '../../src/results/tally/methodology.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { DecidedAlready, resolveWriteIn, writeInGroups, type Resolution } from '../../src/results/writeins/writeins.ts';
import { appendNominees, nomineesToAppend } from '../../src/results/writeins/nominee-append.ts';
import { writeInDecisionLog, writeInDecisionsInForce } from '../../src/results/writeins/writeins.repository.ts';
import { appendAudit, latestAudit } from '../../src/server/db/audit.repository.ts';
import { confirmReservation, releaseReservation } from '../../src/results/reservations.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { ADMIT_REASON_MAX, admitRefused, refusedCsv } from '../../src/results/refused.ts';
import { categoryKey } from '../../src/survey/ballots/ballot-keys.ts';
import { openOutput, progress } from './output.ts';
import { quoted } from '../../src/survey/errors.ts';

/** What every command gets: the database, the survey, its nominees and prepopulation, the options. */
export interface Context {
  db: Kysely<Database>;
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  options: Record<string, string | boolean | undefined>;
  /** Extra words after the slug (`faces cardiology`). */
  rest: string[];
}

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** Who made a decision: `--by`, else the operating system's user. */
export function who(options: Context['options']): string {
  const by = text(options.by)?.trim();
  if (by) return by;
  try {
    return userInfo().username || 'unknown';
  } catch {
    return process.env.USER ?? 'unknown';
  }
}

/** The newest audit entry in words (id, when, what), or that there is none: the state of the operators' decisions a result reflects. */
function auditWords(entry: { id: string; at: string; action: string } | undefined): string {
  return entry ? `audit entry ${entry.id} (${entry.at}, ${entry.action})` : "no audit entry: no operator has changed this survey's data";
}

/** Which state of the operators' decisions a result reflects: the newest audit entry when it was read. */
async function reflects(db: Kysely<Database>, projectId: string): Promise<string> {
  return `Reflects ${auditWords(await latestAudit(db, projectId))}.`;
}

/** Why an operator decided, for the audit trail: `--why` (or `--note`), required wherever a decision is made. */
function reasonGiven(options: Context['options'], command: string): string {
  const why = (text(options.why) ?? text(options.note))?.trim();
  if (!why) throw new OperatorError(`${command} is a decision: say why with --why "…"; the audit trail keeps it with who and when.`);
  return why;
}

function whole(value: string | boolean | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value) || Number(value) < 1)
    throw new OperatorError(`--${name} must be a whole number of at least 1, got ${quoted(String(value))}.`);
  return Number(value);
}

/** `export`: every ballot as CSV or JSON Lines, with progress on standard error. */
export async function exportCommand({ db, survey, nominees, options }: Context): Promise<void> {
  const format = (text(options.format) ?? 'csv') as ExportFormat;
  if (format !== 'csv' && format !== 'jsonl') throw new OperatorError(`--format must be csv or jsonl, got ${quoted(format)}.`);
  const total = await countBallots(db, survey.config.project_id);
  const state = await reflects(db, survey.config.project_id);
  const shown = progress('export', total, Boolean(options.quiet));
  const output = openOutput(text(options.out));
  const count = await exportBallots(db, { survey, nominees, format, write: (chunk) => output.write(chunk), onProgress: shown.update });
  await output.close();
  shown.done(count);
  if (!options.quiet) process.stderr.write(`${state}\n`);
}

/**
 * `tally`: votes per nominee and sub-category with the survey's methodology applied, a CSV and a
 * summary; every exclusion in `--exclusions`. The summary names the configuration digest and the
 * audit entry the tally reflects; with `--out FILE`, FILE.meta.json records them too.
 */
export async function tallyCommand({ db, survey, nominees, prepopulation, options }: Context): Promise<void> {
  const top = whole(options.top, 'top', 5);
  const thresholdText = text(options.threshold);
  const threshold = thresholdText === undefined ? undefined : parseThreshold(thresholdText);
  if (thresholdText !== undefined && !threshold)
    throw new OperatorError(`--threshold must be a number of winners (3) or a share of the votes (10%), got ${quoted(thresholdText)}.`);
  const total = await countBallots(db, survey.config.project_id);
  const entry = await latestAudit(db, survey.config.project_id);
  const digest = tallyDigest(survey.config, nominees);
  const shown = progress('tally', total, Boolean(options.quiet));
  const exclusions = text(options.exclusions) ? openOutput(text(options.exclusions)) : undefined;
  await exclusions?.write(csvLine(EXCLUSION_COLUMNS));
  const { tally, results, csv } = await countSurvey(
    db,
    {
      survey,
      nominees,
      prepopulation,
      onExclusion: exclusions && ((exclusion) => exclusions.write(exclusionCsvLine(exclusion))),
      onProgress: shown.update,
    },
    threshold,
  );
  await exclusions?.close();
  shown.done(tally.totals.ballots);
  const out = text(options.out);
  const output = openOutput(out);
  await output.write(csv);
  await output.close();
  if (out) {
    const meta = openOutput(`${out}.meta.json`);
    await meta.write(
      `${JSON.stringify(
        {
          survey: survey.slug,
          config_digest: digest.config,
          nominee_list_digest: digest.nominees,
          audit_entry: entry?.id ?? 'none',
          audit_head: entry?.hash ?? 'none',
          threshold: thresholdText ?? null,
          ballots: tally.totals.ballots,
          methodology: survey.config.tally,
        },
        null,
        2,
      )}\n`,
    );
    await meta.close();
  }
  const summary = `${tallySummary(results, tally, top)}Config digest: ${digest.short}; reflects ${auditWords(entry)}.\n`;
  (output.toStdout ? process.stderr : process.stdout).write(summary);
}

/** `methodology`: the rules the tally applies, in plain words (Markdown) for the publication to print. */
export async function methodologyCommand({ survey, options }: Context): Promise<void> {
  const output = openOutput(text(options.out));
  await output.write(methodologyText(survey.config));
  await output.close();
}

/** `writeins`: the write-ins grouped by name and sub-category, with their closest nominees and any decision. */
export async function writeInsCommand({ db, survey, nominees, options }: Context): Promise<void> {
  const format = text(options.format) ?? 'table';
  if (format !== 'table' && format !== 'csv') throw new OperatorError(`--format must be table or csv, got ${quoted(format)}.`);
  const groups = await writeInGroups(db, survey.config, nominees, whole(options.candidates, 'candidates', 3));
  const decided = (group: (typeof groups)[number]) => {
    const d = group.decision;
    if (!d) return '';
    return d.action === 'reject' ? 'rejected' : `${d.action === 'new' ? 'new nominee' : 'merged into'} ${d.nominee_id}`;
  };
  const candidate = (c: (typeof groups)[number]['candidates'][number]) =>
    `${c.id} ${c.name}${c.practice ? `, ${c.practice}` : ''} (${Math.round(c.similarity * 100)}%)`;
  if (format === 'csv') {
    let out = csvLine(['category', 'subcategory', 'name', 'count', 'spellings', 'decision', 'decided_by', 'decided_at', 'candidates']);
    for (const g of groups) {
      out += csvLine([
        g.group,
        g.subcategory,
        g.name,
        g.count,
        g.spellings.map((s) => `${s.name} (${s.count})`).join('; '),
        decided(g),
        g.decision?.decided_by,
        g.decision?.decided_at,
        g.candidates.map(candidate).join('; '),
      ]);
    }
    process.stdout.write(out);
    return;
  }
  if (!groups.length) {
    process.stdout.write(`No write-ins in ${survey.slug}.\n`);
    return;
  }
  const lines: string[] = [];
  for (const g of groups) {
    const others =
      g.spellings.length > 1
        ? `  also written ${g.spellings
            .slice(1)
            .map((s) => `"${s.name}" (${s.count})`)
            .join(', ')}`
        : '';
    lines.push(`${String(g.count).padStart(5)}  "${g.name}" in ${categoryKey(g.group, g.subcategory)}${others}`);
    lines.push(g.decision ? `       decided: ${decided(g)} (by ${g.decision.decided_by}, ${g.decision.decided_at})` : '       pending');
    for (const c of g.candidates) lines.push(`       ~ ${candidate(c)}`);
  }
  const pending = groups.filter((g) => !g.decision);
  lines.push('', `${groups.length} write-in names, ${pending.length} pending (${pending.reduce((n, g) => n + g.count, 0)} write-ins).`);
  if (pending.length)
    lines.push(
      `Decide one: npm run results -- writeins resolve ${survey.slug} --name "${pending[0].name}" --category "${categoryKey(pending[0].group, pending[0].subcategory)}" --nominee <id> | --new | --reject`,
    );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `writeins resolve`: records a decision that `tally` honours. */
export async function resolveCommand({ db, survey, nominees, options }: Context): Promise<void> {
  const name = text(options.name);
  if (!name) throw new OperatorError('writeins resolve needs --name "<the write-in as voters wrote it>".');
  const chosen = [options.nominee !== undefined, Boolean(options.new), Boolean(options.reject), Boolean(options.undo)].filter(Boolean).length;
  if (chosen !== 1) throw new OperatorError('writeins resolve needs exactly one of --nominee <id>, --new, --reject or --undo.');
  let resolution: Resolution;
  if (options.nominee !== undefined) resolution = { action: 'merge', nomineeId: text(options.nominee) ?? '' };
  else if (options.new) {
    resolution = {
      action: 'new',
      nomineeId: text(options.id),
      name: text(options['display-name']),
      specialty: text(options.specialty),
      practice: text(options.practice),
      city: text(options.city),
    };
  } else resolution = options.undo ? { action: 'undo' } : { action: 'reject' };
  let rows;
  try {
    rows = await resolveWriteIn(db, survey.config, nominees, {
      name,
      category: text(options.category),
      resolution,
      by: { actor: who(options) },
      note: reasonGiven(options, 'writeins resolve'),
    });
  } catch (error) {
    // The same decision on record already is done, not refused: say whose it is, and change nothing.
    if (error instanceof DecidedAlready && error.recorded) {
      process.stdout.write(`${error.message}\n`);
      return;
    }
    throw error;
  }
  for (const row of rows) {
    const what =
      row.action === 'reject'
        ? 'rejected'
        : row.action === 'undo'
          ? 'its decision undone, it waits for one again'
          : row.action === 'merge'
            ? `counts for ${row.nominee_id}`
            : `counts for the new nominee ${row.nominee_id} (${row.nominee_name})`;
    process.stdout.write(`"${name}" in ${categoryKey(row.category_group, row.subcategory)}: ${what}; decided by ${row.decided_by} at ${row.decided_at}.\n`);
  }
  if (rows.some((row) => row.action === 'new'))
    process.stdout.write(`Add the new nominees to the nominee file with: npm run results -- writeins publish ${survey.slug}\n`);
}

/** `writeins log`: every decision ever made on the survey's write-ins, oldest first. */
export async function logCommand({ db, survey }: Context): Promise<void> {
  let out = csvLine(['decided_at', 'decided_by', 'category', 'subcategory', 'name_key', 'action', 'nominee_id', 'nominee_name', 'note']);
  for (const d of await writeInDecisionLog(db, survey.config.project_id)) {
    out += csvLine([d.decided_at, d.decided_by, d.category_group, d.subcategory, d.name_key, d.action, d.nominee_id, d.nominee_name, d.note]);
  }
  process.stdout.write(out);
}

/** `writeins publish`: appends the new nominees that decisions created to the survey's nominee file. */
export async function publishCommand({ db, survey, nominees, options }: Context): Promise<void> {
  const additions = nomineesToAppend((await writeInDecisionsInForce(db, survey.config.project_id)).values(), nominees);
  if (!additions.length) {
    process.stdout.write('No new nominees to add: every nominee a decision created is on the list already.\n');
    return;
  }
  const file = appendNominees(survey, additions);
  await appendAudit(db, {
    projectId: survey.config.project_id,
    actor: who(options),
    action: 'writeins publish',
    details: { nominee_ids: additions.map((n) => n.id) },
  });
  process.stdout.write(
    `Added ${additions.length} nominee${additions.length === 1 ? '' : 's'} to ${file}: ${additions.map((n) => `${n.id} (${n.name})`).join(', ')}.\n`,
  );
  process.stdout.write(
    survey.config.algolia_index
      ? `Push them to Algolia: ALGOLIA_ADMIN_KEY=… npm run nominees:sync -- ${survey.slug}\n`
      : 'Restart the survey API (or redeploy) so that its built-in search finds them.\n',
  );
}

/** `confirm-reservation` and `release-reservation`: the operator's hand on a Faces or Experts tile. */
export async function reservationCommand(action: 'confirm' | 'release', { db, survey, options, rest }: Context): Promise<void> {
  const [kind, tile] = rest;
  if (!kind || !tile)
    throw new OperatorError(`${action}-reservation needs the kind and the tile: ${action}-reservation ${survey.slug} faces|experts <tile slug or title>.`);
  const why = reasonGiven(options, `${action}-reservation`);
  if (action === 'confirm') {
    const done = await confirmReservation(db, survey.config, { kind, tile, by: who(options), label: text(options.label), why });
    process.stdout.write(`Confirmed ${done.slug} for ballot ${done.ballotId}; the confirmed list shows "${done.label}".\n`);
  } else {
    const done = await releaseReservation(db, survey.config, { kind, tile, by: who(options), why });
    process.stdout.write(
      `Released ${done.slug}${done.ballotId ? ` (held by ballot ${done.ballotId})` : ' (no ballot held it)'}; the next ballot may take it.\n`,
    );
  }
}

/** `refused`: the survey's refused ballots as CSV, each with its reason and answers. */
export async function refusedCommand({ db, survey }: Context): Promise<void> {
  process.stdout.write(await refusedCsv(db, survey));
}

/** `admit`: moves one refused ballot into the ballots, recording who, when and why (admitRefused, which the console calls too). */
export async function admitCommand({ db, survey, options, rest }: Context): Promise<void> {
  const [id] = rest;
  if (!id) throw new OperatorError(`admit needs the refused ballot's id: admit ${survey.slug} <id> --why "…" (the refused command lists the ids).`);
  const done = await admitRefused(db, survey, { id, why: text(options.why), by: { actor: who(options) } });
  switch (done.outcome) {
    case 'admitted':
      process.stdout.write(`Admitted refused ballot ${done.refusedId} as ballot ${done.ballotId} at ${done.at}.\n`);
      return;
    case 'bad_reason':
      throw new OperatorError(
        done.problem === 'missing'
          ? 'Say why the ballot is admitted: --why "…".'
          : done.problem === 'too_long'
            ? `--why is ${done.length} characters long: keep the reason to ${ADMIT_REASON_MAX}.`
            : '--why contains a NUL character (U+0000), which no text may hold.',
      );
    case 'unknown':
      throw new OperatorError(`There is no refused ballot ${id} in ${survey.slug}; the refused command lists them.`);
    case 'admitted_already':
      throw new OperatorError(`Refused ballot ${id} was admitted already, as ballot ${done.ballotId}, by ${done.by} at ${done.at}.`);
    case 'link_has_ballot':
      throw new OperatorError(`Refused ballot ${id} came by a personal link that has a ballot already; a link holds one ballot.`);
  }
}
