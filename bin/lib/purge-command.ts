// `purge-personal`: the vote is over; the personal answers go, the tally stays as it was.
import { unlink } from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Context } from './results-commands.ts';
import { who } from './results-commands.ts';
import { isExpired } from '../../src/survey/people/link.ts';
import { readServerConfig } from '../../src/server/config.ts';
import { appendAudit } from '../../src/server/db/audit.repository.ts';
import { countBallots } from '../../src/results/ballots/ballots.repository.ts';
import { personalFieldNames, purgePersonal, type PurgeReport } from '../../src/results/voters/purge.ts';
import { pseudonymKey, pseudonymKeyFile, readPseudonymKey } from '../../src/results/voters/pseudonym-key.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { progress } from './output.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

function describe(report: PurgeReport, fields: string[]): string {
  const answers = fields.length ? `${report.rows.answers} personal answers (${fields.join(', ')})` : 'no answers (no field is marked personal: true)';
  const others = Object.entries(report.rows)
    .filter(([table]) => table !== 'answers')
    .map(([table, rows]) => `${rows} ${table.replaceAll('_', ' ')}`);
  return `${report.ballots} ballot${report.ballots === 1 ? '' : 's'}: ${[answers, ...others].join(', ')}, ${report.files.length} stored file${report.files.length === 1 ? '' : 's'}`;
}

/**
 * Removes the personal answers and uploads of every ballot, keeping votes, workplaces and the
 * pseudonymous voter keys the tally needs; refuses before the survey's expiration_date unless
 * `--force` (with `--why`). `--dry-run` says what would go and changes nothing.
 */
export async function purgeCommand({ db, survey, nominees, prepopulation, options }: Context): Promise<void> {
  const dryRun = Boolean(options['dry-run']);
  const why = text(options.why)?.trim();
  if (!isExpired(survey.config)) {
    const until = survey.config.expiration_date ? `it runs until ${survey.config.expiration_date}` : 'it has no expiration_date';
    if (!options.force)
      throw new OperatorError(`${survey.slug} is still open (${until}); purge its personal data once the vote is over, or add --force --why "…" to do it now.`);
    if (!why && !dryRun) throw new OperatorError('--force purges an open survey: say why with --why "…", for the audit trail.');
  }
  const fields = personalFieldNames(survey);
  const shown = progress('purge-personal', await countBallots(db, survey.config.project_id), Boolean(options.quiet));
  const input = { survey, nominees, prepopulation, onProgress: shown.update };
  if (dryRun) {
    const report = await purgePersonal(db, { ...input, key: readPseudonymKey(survey) ?? randomBytes(32), dryRun: true });
    shown.done(report.ballots);
    process.stdout.write(`Dry run, nothing changed. purge-personal would remove from ${describe(report, fields)}.\n`);
    return;
  }
  const key = pseudonymKey(survey);
  const report = await db.transaction().execute(async (trx) => {
    const done = await purgePersonal(trx, { ...input, key, dryRun: false });
    if (done.ballots) {
      await appendAudit(trx, {
        projectId: survey.config.project_id,
        actor: who(options),
        action: 'purge-personal',
        reason: why,
        details: { ballots: done.ballots, rows: done.rows, files: done.files.length, fields, forced: !isExpired(survey.config) },
      });
    }
    return done;
  });
  shown.done(report.ballots);
  if (!report.ballots) {
    process.stdout.write(`Nothing to purge: every ballot of ${survey.slug} has been purged already.\n`);
    return;
  }
  // The rows are gone for good with the commit; the files follow (a file that cannot be removed is named, to remove by hand).
  const { uploadsDir } = readServerConfig();
  const left: string[] = [];
  for (const file of report.files)
    await unlink(path.join(uploadsDir, file)).catch((error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && left.push(file));
  process.stdout.write(`Purged ${describe(report, fields)}. Kept: votes, workplaces and pseudonymous voter keys (key: ${pseudonymKeyFile(survey)}).\n`);
  if (left.length) process.stderr.write(`Could not delete ${left.length} file(s) in ${uploadsDir}: ${left.join(', ')}; remove them by hand.\n`);
}
