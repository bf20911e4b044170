// A survey's published results folder as the build reads it: surveys/<slug>/results/, which
// `npm run results -- publish` writes and the operator commits.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { surveysDir } from '../config/loader.ts';
import { standingOf, type BallotStanding, type LedgerLine, type PublishedResults } from './published-results.ts';

/** The files a published folder holds, served byte for byte beside the results page. */
export const PUBLISHED_DOWNLOADS = ['results.json', 'ledger.jsonl', 'verify.mjs', 'methodology.md'] as const;

/** The published folder of a survey. */
export const publishedDir = (slug: string, dir = surveysDir()): string => path.join(dir, slug, 'results');

/** True when the survey has published results: the results page is then built. */
export const hasPublishedResults = (slug: string, dir = surveysDir()): boolean => existsSync(path.join(publishedDir(slug, dir), 'results.json'));

/** What the results page shows: results.json and the methodology's text. */
export interface PublishedFolder {
  results: PublishedResults;
  methodology: string;
}

/** Reads a survey's published folder; throws with the file's name when a file is missing or not JSON. */
export function readPublished(slug: string, dir = surveysDir()): PublishedFolder {
  const folder = publishedDir(slug, dir);
  const file = path.join(folder, 'results.json');
  let results: PublishedResults;
  try {
    results = JSON.parse(readFileSync(file, 'utf8')) as PublishedResults;
  } catch (error) {
    throw new Error(`${file}: cannot be read as published results (${(error as Error).message}); publish again with npm run results -- publish ${slug}.`);
  }
  const methodology = path.join(folder, 'methodology.md');
  return { results, methodology: existsSync(methodology) ? readFileSync(methodology, 'utf8') : '' };
}

/** One ballot as the results page's check finds it: its ledger line, its standing, and each vote not counted. */
export type ReceiptEntry = [line: number, standing: BallotStanding, left: Array<[subcategory: string, nomineeId: string, why: string]>];

/** The first hex digits of a receipt hash that name its shard: 256 files, each a 256th of the ledger. */
const shardOf = (hash: string): string => hash.slice(0, 2);

/**
 * The ledger split by the first two hex digits of each receipt hash, for the results page's
 * check: the browser hashes the code and fetches one small file, never the whole ledger, and
 * the code itself never leaves it. The ledger is read a line at a time.
 */
export async function receiptShards(file: string): Promise<Map<string, Record<string, ReceiptEntry>>> {
  const shards = new Map<string, Record<string, ReceiptEntry>>();
  const input = createReadStream(file, 'utf8');
  for await (const text of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (!text) continue;
    const line = JSON.parse(text) as LedgerLine;
    if (!line.receipt) continue;
    const shard = shardOf(line.receipt);
    if (!shards.has(shard)) shards.set(shard, {});
    const left = line.votes
      .filter((vote) => !vote.counted)
      .map((vote): [string, string, string] => [vote.subcategory, vote.nominee_id, vote.not_counted ?? '']);
    shards.get(shard)![line.receipt] = [line.n, standingOf(line), left];
  }
  return shards;
}
