// The published ballot ledger: one line per ballot, in the order received, chained by hashes,
// so that anyone can re-tally the published results and a voter can find their own line.
import { createHash } from 'node:crypto';
import type { ExclusionReason, Verdict } from '../tally/rules.ts';
import type { LedgerLine, LedgerStatus, LedgerVote, NotCounted } from '../../survey/published/published-results.ts';

/** The `prev` of the first line, and the head of a ledger without lines. */
const GENESIS = '0'.repeat(64);

/**
 * Why a vote was not counted, by category only: a reason such as a vote for oneself or for a
 * colleague of one's own practice would tell who cast the ballot, so the ledger says only
 * whether the whole ballot was set aside, the vote itself was invalid, or a rule of the
 * methodology left it out. verify.mjs and the results page read the same three words.
 */
const NOT_COUNTED: Record<ExclusionReason, NotCounted> = {
  demo_ballot: 'ballot',
  operator_excluded: 'ballot',
  duplicate_ballot: 'ballot',
  not_on_list: 'vote',
  repeat_on_ballot: 'vote',
  outside_subcategory: 'methodology',
  outside_region: 'methodology',
  self_vote: 'methodology',
  same_practice: 'methodology',
};

/** SHA-256 of a text, hex. */
export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A receipt as the ledger carries it: the SHA-256 of the survey's salt followed by the normalised code. */
export const receiptHash = (salt: string, code: string): string => sha256(`${salt}${code}`);

/** A ballot's votes as the ledger writes them, from the tally's verdicts. */
export function ledgerVotes(verdicts: readonly Verdict[], pointsOf: (verdict: Verdict) => number, status: LedgerStatus = 'current'): LedgerVote[] {
  return verdicts.map(({ vote, counted, reason }) => {
    const line: LedgerVote = {
      category: vote.group,
      subcategory: vote.subcategory,
      slot: vote.slot ?? null,
      nominee_id: vote.nomineeId,
      points: pointsOf({ vote, counted }),
      counted: status === 'current' && counted,
    };
    if (status === 'replaced') line.not_counted = 'replaced';
    else if (!counted) line.not_counted = reason ? NOT_COUNTED[reason] : 'methodology';
    return line;
  });
}

/**
 * Writes the ledger a line at a time: each line carries the hash of the line before it, and
 * the hash of the last line written is the head that results.json publishes.
 */
export class LedgerChain {
  #n = 0;
  #head = GENESIS;

  /** The line for the next ballot, as text without its newline; the head moves to its hash. */
  next(line: Omit<LedgerLine, 'n' | 'prev'>): string {
    const text = JSON.stringify({ n: ++this.#n, prev: this.#head, receipt: line.receipt, status: line.status, votes: line.votes });
    this.#head = sha256(text);
    return text;
  }

  /** The hash of the last line, GENESIS before any. */
  get head(): string {
    return this.#head;
  }

  /** How many lines were written. */
  get lines(): number {
    return this.#n;
  }
}
