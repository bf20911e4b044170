// The published results as the receipt check reads them: surveys/<slug>/results/, followed as
// it changes, with the ledger indexed by receipt hash so that one check reads a few lines.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { fileStamp, followFiles } from '../file-stamp.ts';
import { m } from '../../i18n/messages.ts';
import {
  notCountedWords,
  standingOf,
  type BallotStanding,
  type LedgerLine,
  type NotCounted,
  type PublishedResults,
} from '../../survey/published/published-results.ts';

/** A published ledger ready for lookups: the salt, the nominees' names, and where each receipt's line may be. */
interface LedgerIndex {
  salt: string;
  names: Map<string, string>;
  file: string;
  /** Byte offset and length of each line, by the first four hex digits of its receipt hash: a few lines a bucket. */
  buckets: Map<string, number[]>;
}

/** Bytes read at a time while indexing: the ledger is never held whole. */
const CHUNK = 1 << 20;

/** Reads the published folder of a survey and indexes its ledger; undefined when nothing is published. */
function indexLedger(folder: string): LedgerIndex | undefined {
  let results: PublishedResults;
  try {
    results = JSON.parse(readFileSync(path.join(folder, 'results.json'), 'utf8')) as PublishedResults;
  } catch {
    return undefined;
  }
  const file = path.join(folder, 'ledger.jsonl');
  const names = new Map(results.subcategories.flatMap((sub) => sub.nominees.map((nominee) => [nominee.nominee_id, nominee.name] as const)));
  const buckets = new Map<string, number[]>();
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    // results.json without its ledger: a folder half copied, or not published at all.
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(CHUNK);
    let carry = Buffer.alloc(0);
    let offset = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      let data = Buffer.concat([carry, buffer.subarray(0, read)]);
      let start = 0;
      for (let end = data.indexOf(10); end >= 0; end = data.indexOf(10, start)) {
        // The receipt's hash sits at a fixed place of every line: {"n":…,"prev":"<64>","receipt":"<64>".
        const text = data.toString('latin1', start, Math.min(end, start + 200));
        const match = /"receipt":"([0-9a-f]{4})/.exec(text);
        if (match) {
          const bucket = buckets.get(match[1]) ?? [];
          bucket.push(offset + start, end - start);
          buckets.set(match[1], bucket);
        }
        start = end + 1;
      }
      offset += start;
      data = data.subarray(start);
      carry = Buffer.from(data);
    }
  } finally {
    closeSync(fd);
  }
  return { salt: results.receipt_salt, names, file, buckets };
}

const followers = new Map<string, () => LedgerIndex | undefined>();

/** A survey's published ledger index (its folder's `results/`), read again when results.json or ledger.jsonl change (checked at most once a second). */
function publishedIndex(surveyDir: string): LedgerIndex | undefined {
  const folder = path.join(surveyDir, 'results');
  let follow = followers.get(folder);
  if (!follow) {
    const stamp = () => `${fileStamp(path.join(folder, 'results.json'))}|${fileStamp(path.join(folder, 'ledger.jsonl'))}`;
    follow = followFiles(stamp, () => indexLedger(folder));
    followers.set(folder, follow);
  }
  return follow();
}

/** What the published results say of one ballot: its standing, and each vote not counted in words. */
export interface PublishedStanding {
  status: BallotStanding;
  reasons: string[];
}

/**
 * Finds a receipt's line in the survey's published ledger, once results are published: its
 * standing and, for each vote not counted, why in words (the published category). Undefined
 * before publication, or for a ballot the ledger does not hold.
 */
export function publishedStanding(surveyDir: string, code: string): PublishedStanding | undefined {
  const index = publishedIndex(surveyDir);
  if (!index) return undefined;
  const hash = createHash('sha256').update(`${index.salt}${code}`).digest('hex');
  const bucket = index.buckets.get(hash.slice(0, 4)) ?? [];
  if (!bucket.length) return undefined;
  let fd: number;
  try {
    fd = openSync(index.file, 'r');
  } catch {
    return undefined;
  }
  try {
    for (let i = 0; i < bucket.length; i += 2) {
      const buffer = Buffer.alloc(bucket[i + 1]);
      readSync(fd, buffer, 0, buffer.length, bucket[i]);
      let line: LedgerLine;
      try {
        line = JSON.parse(buffer.toString('utf8')) as LedgerLine;
      } catch {
        // A ledger rewritten since it was indexed: its lines moved; the next check reads it again.
        continue;
      }
      if (line.receipt !== hash) continue;
      const status = standingOf(line);
      const reasons =
        status === 'replaced'
          ? [notCountedWords().replaced]
          : line.votes
              .filter((vote) => !vote.counted)
              .map(
                (vote) =>
                  `${vote.subcategory}, ${index.names.get(vote.nominee_id) || vote.nominee_id}: ${notCountedWords()[vote.not_counted as NotCounted] ?? m.not_counted_at_all()}`,
              );
      return { status, reasons };
    }
  } finally {
    closeSync(fd);
  }
  return undefined;
}
