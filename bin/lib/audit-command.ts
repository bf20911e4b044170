// `audit`: a survey's audit trail, listed or checked against its hash chain.
import path from 'node:path';
import type { Context } from './results-commands.ts';
import type { AuditRow } from '../../src/server/db/tables/audit-log.table.ts';
import { auditTrail, verifyAuditTrail } from '../../src/server/db/audit.repository.ts';
import type { ChainAnchor } from '../../src/server/db/audit-chain.ts';
import { publishedAnchor } from '../../src/server/db/audit-anchors.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { quoted } from '../../src/survey/errors.ts';
import { openOutput } from './output.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** The columns of the CSV and the keys of each JSON line: the first seven as before the chain, then who and through what, then the chain: every field its hash covers. */
const COLUMNS = [
  'id',
  'at',
  'actor',
  'action',
  'subject',
  'reason',
  'details',
  'via',
  'actor_email',
  'role',
  'session',
  'project_id',
  'seq',
  'prev_hash',
  'hash',
] as const satisfies ReadonlyArray<keyof AuditRow>;

/** The options that choose what is listed, which a check of the whole trail does not take. */
const LISTING = ['format', 'action', 'actor', 'out'] as const;

/** The anchors a check is given: the head the operator noted (`--head`), and the entry the survey's publication names. */
function anchorsOf({ survey, options }: Context): ChainAnchor[] {
  const anchors: ChainAnchor[] = [];
  const head = text(options.head);
  if (head !== undefined) {
    if (!/^[0-9a-f]{16,64}$/i.test(head))
      throw new OperatorError(`--head must be an entry's hash, 16 to 64 hex digits (audit --verify prints the head), got ${quoted(head)}.`);
    anchors.push({ source: 'the head given (--head)', hash: head });
  }
  let published: ChainAnchor | undefined;
  try {
    published = publishedAnchor(survey.slug, path.dirname(survey.dir));
  } catch (error) {
    throw new OperatorError((error as Error).message);
  }
  if (published) anchors.push(published);
  return anchors;
}

/** One row of the table: the entry's number, when, through what, who, role, what, to what and why. */
function tableCells(entry: AuditRow): string[] {
  const who = entry.actor_email ? `${entry.actor} <${entry.actor_email}>` : entry.actor;
  return [String(entry.seq ?? ''), entry.at, entry.via, who, entry.role ?? '', entry.action, entry.subject ?? '', entry.reason ?? ''];
}

/** The trail as a table for the terminal, newest first; the reason, the last column, is never cut. */
function table(entries: AuditRow[]): string {
  const rows = [['#', 'at', 'via', 'actor', 'role', 'action', 'subject', 'reason'], ...entries.toReversed().map(tableCells)];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => `${row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  ')}`.trimEnd()).join('\n');
}

/**
 * `audit`: the survey's audit trail as CSV or JSON Lines (oldest first, every column) or a table
 * (newest first), narrowed by `--action` and `--actor`; with `--verify`, the check of the whole
 * trail against its hash chain, the head given with `--head` and the entry the survey's
 * publication names: `verified: N entries, head H`, or a non-zero exit naming the first entry out
 * of line.
 */
/** Writes audit entries as CSV, a header then a line an entry, with every field the chain's hash covers. */
export async function writeAuditCsv(output: ReturnType<typeof openOutput>, entries: readonly AuditRow[]): Promise<void> {
  await output.write(csvLine(COLUMNS));
  for (const entry of entries) await output.write(csvLine(COLUMNS.map((column) => entry[column])));
}

export async function auditCommand(context: Context): Promise<void> {
  const { db, survey, options } = context;
  const projectId = survey.config.project_id;
  if (options.verify) {
    const listing = LISTING.filter((name) => options[name] !== undefined);
    if (listing.length)
      throw new OperatorError(`audit --verify checks the whole trail and lists nothing: leave out ${listing.map((name) => `--${name}`).join(', ')}.`);
    const check = await verifyAuditTrail(db, projectId, anchorsOf(context));
    if (!check.ok) throw new OperatorError(`not verified: ${check.message}.`);
    process.stdout.write(`${check.message}\n`);
    return;
  }
  if (options.head !== undefined) throw new OperatorError('--head is a hash to check the trail against: give it with --verify.');
  const format = text(options.format) ?? 'csv';
  if (format !== 'table' && format !== 'csv' && format !== 'jsonl') throw new OperatorError(`--format must be table, csv or jsonl, got ${quoted(format)}.`);
  const action = text(options.action);
  const actor = text(options.actor);
  const trail = await auditTrail(db, projectId);
  const entries = trail.filter(
    (entry) =>
      (action === undefined || entry.action === action) &&
      (actor === undefined || entry.actor === actor || entry.actor_email?.toLowerCase() === actor.toLowerCase()),
  );
  const output = openOutput(text(options.out));
  if (format === 'csv') await writeAuditCsv(output, entries);
  else if (format === 'jsonl') {
    for (const entry of entries) await output.write(`${JSON.stringify(Object.fromEntries(COLUMNS.map((column) => [column, entry[column]])))}\n`);
  } else if (entries.length) await output.write(`${table(entries)}\n`);
  else if (!trail.length) await output.write(`No audit entries in ${survey.slug}: no act has changed its data.\n`);
  else {
    const known = (pick: (entry: AuditRow) => string) => [...new Set(trail.map(pick))].join(', ');
    const asked = [action !== undefined ? `--action ${quoted(action)}` : '', actor !== undefined ? `--actor ${quoted(actor)}` : '']
      .filter(Boolean)
      .join(' and ');
    await output.write(
      `No entry of ${survey.slug}'s audit trail matches ${asked}; its actions are ${known((e) => e.action)}; its actors ${known((e) => e.actor)}.\n`,
    );
  }
  await output.close();
}
