// The publication's commands: publish a survey's results folder, and check it against the database.
import { OperatorError } from '../../src/results/operator.ts';
import { countBallots } from '../../src/results/ballots/ballots.repository.ts';
import { publishResults, publishedFolder } from '../../src/results/publish/publish.ts';
import { auditLedger } from '../../src/results/publish/ledger-audit.ts';
import { beforeClose, closeWords, recordUnseal } from '../../src/results/publish/seal.ts';
import { progress } from './output.ts';
import { who, type Context } from './results-commands.ts';
import { quoted } from '../../src/survey/errors.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** Reads `--at`: an ISO 8601 time for published_at. */
function publishedAt(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime()))
    throw new OperatorError(`--at must be an ISO 8601 time such as 2027-03-01T12:00:00Z, got ${quoted(value)}.`);
  return at;
}

/**
 * `publish`: after the close, writes surveys/<slug>/results/ (results.json, ledger.jsonl,
 * methodology.md, verify.mjs) for the operator to commit; before the close only with
 * `--force --why` (or a sealed survey's `--unseal --why`), recorded on the audit trail first.
 */
export async function publishCommand({ db, survey, nominees, prepopulation, options }: Context): Promise<void> {
  const at = publishedAt(text(options.at));
  if (beforeClose(survey)) {
    const flag = options.force ? '--force' : options.unseal ? '--unseal' : undefined;
    if (!flag)
      throw new OperatorError(
        `${survey.slug} is still open, until ${closeWords(survey)}: publish after the close, or add --force --why "…" to publish now (recorded on the audit trail).`,
      );
    await recordUnseal(db, survey, { command: 'publish', unseal: true, why: text(options.why), actor: who(options) }, flag);
  }
  const shown = progress('publish', await countBallots(db, survey.config.project_id), Boolean(options.quiet));
  const results = await publishResults(db, { survey, nominees, prepopulation, at, onProgress: shown.update });
  shown.done(results.ballots.received);
  const winners = results.subcategories.reduce((n, sub) => n + sub.nominees.filter((nominee) => nominee.winner).length, 0);
  process.stdout.write(
    `Published ${survey.slug} to ${publishedFolder(survey)}: ${results.ballots.received} ballots, ${results.votes.counted} votes counted, ${winners} winners in ${results.subcategories.length} sub-categories; head ${results.head}.\n` +
      'Commit the folder and build the site (npm run build) to put the results page online.\n',
  );
}

/** `verify`: the published ledger against the database, line by line; a non-zero status names each ballot that changed. */
export async function verifyCommand({ db, survey, nominees, prepopulation, options }: Context): Promise<void> {
  const shown = progress('verify', await countBallots(db, survey.config.project_id), Boolean(options.quiet));
  const audit = await auditLedger(db, { survey, nominees, prepopulation, onProgress: shown.update });
  shown.done(audit.rebuilt);
  const lines = audit.changes.map((change) => `ledger.jsonl line ${change.line}: ${change.kind}: ${change.text}`);
  if (audit.configChanged) lines.push("results.json config_digest: the survey's methodology, categories or nominee list changed since publication");
  if (lines.length) {
    throw new OperatorError(
      `The published ledger of ${survey.slug} no longer agrees with the database (${audit.published} lines published, ${audit.rebuilt} today):\n${lines.join('\n')}`,
    );
  }
  process.stdout.write(`The published ledger of ${survey.slug} agrees with the database: ${audit.published} ballots, line by line.\n`);
}
