// `results verify`: the published ledger against the database today, line by line.
import { once } from 'node:events';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { LedgerLine, PublishedResults } from '../../survey/published/published-results.ts';
import { OperatorError } from '../operator.ts';
import { sha256 } from './ledger.ts';
import { publishResults, publishedFolder, type PublishInput } from './publish.ts';

/** One ballot whose line differs between the published ledger and the database today. */
interface LedgerChange {
  kind: 'stored' | 'changed' | 'excluded' | 'replaced' | 'removed';
  /** The line in the published ledger; for a ballot stored since, the line it would take. */
  line: number;
  /** The change in words. */
  text: string;
}

/** What the comparison found: the changes, the lines compared, and whether the configuration changed. */
export interface LedgerAudit {
  changes: LedgerChange[];
  published: number;
  rebuilt: number;
  configChanged: boolean;
}

/** The lines of a ledger file, parsed, in order. */
async function* ledgerLines(file: string): AsyncGenerator<LedgerLine> {
  const input = createReadStream(file, 'utf8');
  try {
    for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) if (text) yield JSON.parse(text) as LedgerLine;
  } finally {
    input.destroy();
    await once(input, 'close').catch(() => undefined);
  }
}

/** What a line says of its ballot, without its place in the chain: equal when the ballot's standing is unchanged. */
const contentOf = (line: LedgerLine) => sha256(JSON.stringify([line.status, line.votes]));

/** What changed in one ballot's line, in words. */
function describe(before: LedgerLine, after: LedgerLine): Pick<LedgerChange, 'kind' | 'text'> {
  if (before.status !== after.status) return { kind: 'replaced', text: `its ballot is now ${after.status} (published ${before.status})` };
  const counted = (line: LedgerLine) => line.votes.filter((vote) => vote.counted).length;
  if (before.votes.length === after.votes.length && counted(after) < counted(before))
    return { kind: 'excluded', text: `${counted(before) - counted(after)} of its votes are no longer counted` };
  if (before.votes.length === after.votes.length && counted(after) > counted(before))
    return { kind: 'changed', text: `${counted(after) - counted(before)} more of its votes are counted now` };
  return { kind: 'changed', text: 'its votes differ from the published line' };
}

/**
 * Counts the survey again into a scratch folder with the published receipt salt, then compares
 * the new ledger with the published one ballot by ballot (by the receipt's hash): each ballot
 * stored, changed, excluded, replaced or removed since publication, named by its ledger line.
 */
export async function auditLedger(db: Kysely<Database>, input: Omit<PublishInput, 'folder' | 'at'> & { folder?: string }): Promise<LedgerAudit> {
  const folder = input.folder ?? publishedFolder(input.survey);
  const resultsFile = path.join(folder, 'results.json');
  if (!existsSync(resultsFile) || !existsSync(path.join(folder, 'ledger.jsonl')))
    throw new OperatorError(`${input.survey.slug} has no published results in ${folder}: run publish first.`);
  const published = JSON.parse(readFileSync(resultsFile, 'utf8')) as PublishedResults;
  const scratch = mkdtempSync(path.join(tmpdir(), 'peervote-verify-'));
  try {
    const rebuiltFolder = path.join(scratch, 'results');
    mkdirSync(rebuiltFolder);
    copyFileSync(resultsFile, path.join(rebuiltFolder, 'results.json'));
    const rebuilt = await publishResults(db, { ...input, folder: rebuiltFolder, at: new Date(published.published_at) });
    const byReceipt = new Map<string, { n: number; content: string; line: LedgerLine }>();
    let publishedCount = 0;
    for await (const line of ledgerLines(path.join(folder, 'ledger.jsonl'))) {
      publishedCount++;
      byReceipt.set(line.receipt ?? `line ${line.n}`, { n: line.n, content: contentOf(line), line });
    }
    const changes: LedgerChange[] = [];
    let rebuiltCount = 0;
    for await (const line of ledgerLines(path.join(rebuiltFolder, 'ledger.jsonl'))) {
      rebuiltCount++;
      const key = line.receipt ?? `line ${line.n}`;
      const before = byReceipt.get(key);
      if (!before) {
        changes.push({ kind: 'stored', line: line.n, text: `a ballot stored since publication would be line ${line.n}` });
        continue;
      }
      byReceipt.delete(key);
      if (before.content !== contentOf(line)) changes.push({ line: before.n, ...describe(before.line, line) });
    }
    for (const { n } of byReceipt.values()) changes.push({ kind: 'removed', line: n, text: 'its ballot is no longer in the database' });
    changes.sort((a, b) => a.line - b.line);
    return { changes, published: publishedCount, rebuilt: rebuiltCount, configChanged: rebuilt.config_digest !== published.config_digest };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
