import { m } from '../../i18n/messages.ts';
// The published results folder (surveys/<slug>/results/) as the results page, the receipt check
// and the operator's tools read it: results.json and the lines of ledger.jsonl.

/** The categories a vote not counted is published under (never the reason itself, which could tell who voted). */
export type NotCounted = 'ballot' | 'vote' | 'methodology' | 'replaced';

/** A ballot's standing in the ledger: counted as it is, or replaced by a later ballot of the same voter. */
export type LedgerStatus = 'current' | 'replaced';

/** One vote of a ledger line. */
export interface LedgerVote {
  category: string;
  subcategory: string;
  /** The slot it filled, 1 first; null for a write-in matched to a nominee. */
  slot: number | null;
  nominee_id: string;
  /** The points it earns when counted. */
  points: number;
  counted: boolean;
  not_counted?: NotCounted;
}

/** One ballot of the ledger, as published: no id, time, name, address, licence or answer. */
export interface LedgerLine {
  /** Its place, 1 first. */
  n: number;
  /** The SHA-256 of the line before it, as written (64 zeros for the first). */
  prev: string;
  /** The SHA-256 of the receipt salt followed by the normalised receipt code, hex; null for a ballot stored before receipts. */
  receipt: string | null;
  status: LedgerStatus;
  votes: LedgerVote[];
}

/** One nominee's published result in a sub-category. */
interface PublishedNominee {
  nominee_id: string;
  name: string;
  /** Place by points, shared by a tie (1, 2, 2, 4); null without a counted vote. */
  rank: number | null;
  counted: number;
  points: number;
  winner: boolean;
}

/** results.json: what the publication prints, and what verify.mjs checks against the ledger. */
export interface PublishedResults {
  survey: string;
  title: string;
  published_at: string;
  config_digest: string;
  /** The id of the newest audit entry when published, or `none`. */
  audit_entry: string;
  /** That entry's hash (its trail's head then), or `none`: `audit --verify` checks the trail still holds it. Absent from folders published before the trail was chained. */
  audit_head?: string;
  receipt_salt: string;
  head: string;
  ballots: { received: number; counted: number; replaced: number };
  votes: { counted: number; not_counted: number };
  exclusions: Record<string, number>;
  /** The counting rules applied (the survey's resolved `tally:` block), which verify.mjs ranks by. */
  methodology: {
    points: number[];
    min_votes: number;
    min_share: number;
    publish: { top?: number; ties: 'include' | 'exclude' };
    [rule: string]: unknown;
  };
  subcategories: Array<{ category: string; subcategory: string; nominees: PublishedNominee[] }>;
}

/** Where a ballot stands for its voter: every vote counted, some, none, or replaced by a later ballot. */
export type BallotStanding = 'counted' | 'partly_counted' | 'not_counted' | 'replaced';

/** A ledger line's standing: what the receipt check and the results page tell the code's holder. */
export function standingOf(line: Pick<LedgerLine, 'status' | 'votes'>): BallotStanding {
  if (line.status === 'replaced') return 'replaced';
  const counted = line.votes.filter((vote) => vote.counted).length;
  if (counted === 0) return 'not_counted';
  return counted === line.votes.length ? 'counted' : 'partly_counted';
}

/** Why a vote was not counted, in the voter's words and language, by its published category. */
export function notCountedWords(): Record<NotCounted, string> {
  return { ballot: m.not_counted_ballot(), vote: m.not_counted_vote(), methodology: m.not_counted_methodology(), replaced: m.not_counted_replaced() };
}

/** A ballot's standing in one sentence for its voter, in the page's or the request's language. */
export function standingWords(): Record<BallotStanding | 'not_found', string> {
  return {
    counted: m.standing_counted(),
    partly_counted: m.standing_partly_counted(),
    not_counted: m.standing_not_counted(),
    replaced: m.standing_replaced(),
    not_found: m.standing_not_found(),
  };
}
