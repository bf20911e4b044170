import { isBlank, type BallotValue } from './ballot-input.ts';
import { m } from '../../i18n/messages.ts';

/**
 * The vote count of docs/spec.md, "Submitting", as the vote requirement counts it: the nomination slots holding a
 * nominee plus the write-ins with a name; a blank one (nothing, or only spaces) is no vote.
 * Each side passes what it holds: the ballot struct a ballot's slot and write-in values, the
 * page's `$voteCount` its picks and write-in rows, a stored ballot (ballotParts) its rows.
 */
export function voteCount(nomineeIds: Iterable<BallotValue | undefined>, writeInNames: Iterable<BallotValue | undefined>): number {
  let votes = 0;
  for (const id of nomineeIds) if (!isBlank(id)) votes++;
  for (const name of writeInNames) if (!isBlank(name)) votes++;
  return votes;
}

/** A vote as the once-per-sub-category rule sees it: the sub-category it goes to and the nominee it names. */
export interface NamedVote {
  group: string;
  subcategory: string;
  nomineeId: string;
}

/**
 * The rule "one nominee once per sub-category of a ballot" (docs/spec.md, "Nominations"): the index of the
 * earlier vote of `votes` that names the same nominee in the same sub-category as vote `i`, or
 * -1 when none does. The ballot struct refuses such a slot, the page clears a pick that repeats
 * one (its pick goes last), and the tally counts the earlier vote only (`repeat_on_ballot`).
 */
export function repeatOnBallot(votes: readonly NamedVote[], i: number): number {
  const { group, subcategory, nomineeId } = votes[i];
  // A ballot has a few dozen votes at most; the tally calls this for a million ballots, so no set is built.
  for (let j = 0; j < i; j++) {
    const other = votes[j];
    if (other.nomineeId === nomineeId && other.subcategory === subcategory && other.group === group) return j;
  }
  return -1;
}

/** The code of the problem "too few names": the page tells it with its own notice, not at a field (docs/spec.md, "Submitting"). */
export const VOTE_REQUIREMENT = 'vote-requirement';

/** The text of the vote-requirement error (docs/spec.md, "Submitting"). */
export function voteRequirementMessage(n: number): string {
  return m.vote_requirement({ count: n });
}

/** True when a problem is the vote requirement's, by its code. */
export function isVoteRequirement(problem: { code?: string }): boolean {
  return problem.code === VOTE_REQUIREMENT;
}
