import { workplaceKey } from '../workplaces.ts';
import { licenseKey, nameWords, sameName } from './identity-keys.ts';
import type { Voter } from './voter.ts';

/** Why a vote is not counted. */
export type ExclusionReason = 'demo_ballot' | 'operator_excluded' | 'duplicate_ballot' | 'not_on_list' | 'repeat_on_ballot' | 'self_vote';

/** Every reason, in the order the rules apply and the reports list them. */
export const EXCLUSION_REASONS: readonly ExclusionReason[] = ['demo_ballot', 'operator_excluded', 'duplicate_ballot', 'not_on_list', 'repeat_on_ballot', 'self_vote'];

/** What each reason means, for the reports. */
export const REASON_TEXT: Record<ExclusionReason, string> = {
  demo_ballot: 'sent with the demo secret, which is for trying the survey out',
  operator_excluded: 'an operator took the whole ballot out of the count (results exclude), for the reason recorded in the audit trail',
  duplicate_ballot: 'a later ballot from someone who had voted already (same personal link, email or license); the first one stands',
  not_on_list: 'names a nominee id that is not on the nominee list',
  repeat_on_ballot: 'the same nominee twice in one sub-category of one ballot (a slot and a reconciled write-in); counted once',
  self_vote: 'the voter nominated themselves without naming two other nominees outside their practice in that sub-category',
};

/** The fewest other nominees outside the voter's practice that a ballot must name beside a self-vote (SPEC.md §5). */
export const SELF_VOTE_OUTSIDE = 2;

/** One vote of a ballot: a filled slot, or a write-in reconciled to a nominee. */
export interface Vote {
  group: string;
  subcategory: string;
  nomineeId: string;
  source: 'slot' | 'write-in';
  /** The write-in's text, for a vote from a write-in. */
  writeIn?: string;
}

/** What the rules know of a nominee. */
export interface NomineeFacts {
  name: string;
  practice?: string;
  license?: string;
}

/** The earlier ballot a ballot repeats, and what they share. */
export interface DuplicateOf {
  ballotId: string;
  by: 'personal link' | 'email' | 'license';
}

/** An operator's exclusion of a whole ballot: their why, and the audit entry that records it. */
export interface OperatorExclusion {
  reason: string;
  auditId: string;
}

/** A ballot as the rules judge it. */
export interface BallotToJudge {
  id: string;
  demo: boolean;
  excluded?: OperatorExclusion;
  duplicateOf?: DuplicateOf;
  voter: Voter;
  votes: readonly Vote[];
}

/** A vote with the verdict on it. */
export interface Verdict {
  vote: Vote;
  counted: boolean;
  reason?: ExclusionReason;
  /** Why, for this ballot in words: which ballot it repeats, how the self-vote was recognised. */
  detail?: string;
}

/**
 * How a vote names the voter, or undefined when it does not: by nominee id when the voter's
 * personal link carries one, else by name, with the licenses agreeing where both are known
 * (after a purge, by the matches the name made before it went).
 */
export function selfMatch(voter: Voter, nomineeId: string, nominee: NomineeFacts): string | undefined {
  if (voter.nomineeId) return voter.nomineeId === nomineeId ? `the voter's personal link names nominee ${nomineeId}` : undefined;
  if (voter.selfMatches) return voter.selfMatches[nomineeId];
  if (!sameName(voter.nameWords, nameWords(nominee.name))) return undefined;
  const listed = licenseKey(nominee.license);
  if (listed && voter.license) return listed === voter.license ? `the voter's name and license are the nominee's` : undefined;
  return `the voter's name is the nominee's (no license to compare)`;
}

/** True when a nominee's practice is known and is not the voter's. */
function outside(voter: Voter, nominee: NomineeFacts | undefined): boolean {
  const practice = workplaceKey(nominee?.practice ?? '');
  return practice !== '' && practice !== workplaceKey(voter.practice);
}

/**
 * Judges every vote of one ballot, in this order: a demo ballot counts nothing; a ballot an
 * operator excluded counts nothing; a duplicate
 * ballot counts nothing; a vote for an id the list lacks is not counted; a nominee named twice
 * in one sub-category counts once; a self-vote counts only when the ballot names at least two
 * other nominees in that sub-category whose practice is not the voter's.
 */
export function judgeBallot(ballot: BallotToJudge, nominees: (id: string) => NomineeFacts | undefined): Verdict[] {
  if (ballot.demo) return ballot.votes.map((vote) => ({ vote, counted: false, reason: 'demo_ballot' }));
  const excluded = ballot.excluded;
  if (excluded) {
    const detail = `excluded by an operator: ${excluded.reason} (audit ${excluded.auditId})`;
    return ballot.votes.map((vote) => ({ vote, counted: false, reason: 'operator_excluded', detail }));
  }
  const duplicate = ballot.duplicateOf;
  if (duplicate) {
    const detail = `same ${duplicate.by} as ballot ${duplicate.ballotId}, which stands`;
    return ballot.votes.map((vote) => ({ vote, counted: false, reason: 'duplicate_ballot', detail }));
  }
  const verdicts: Verdict[] = [];
  const seen = new Set<string>();
  for (const vote of ballot.votes) {
    const key = `${vote.group}\u0000${vote.subcategory}\u0000${vote.nomineeId}`;
    if (!nominees(vote.nomineeId)) verdicts.push({ vote, counted: false, reason: 'not_on_list', detail: `no nominee has the id ${vote.nomineeId}` });
    else if (seen.has(key)) verdicts.push({ vote, counted: false, reason: 'repeat_on_ballot', detail: `${vote.nomineeId} is already named in ${vote.subcategory} on this ballot` });
    else verdicts.push({ vote, counted: true });
    seen.add(key);
  }
  const selfOf = new Map<Verdict, string>();
  for (const verdict of verdicts) {
    const how = verdict.counted ? selfMatch(ballot.voter, verdict.vote.nomineeId, nominees(verdict.vote.nomineeId)!) : undefined;
    if (how) selfOf.set(verdict, how);
  }
  for (const [verdict, how] of selfOf) {
    const { group, subcategory } = verdict.vote;
    const others = verdicts.filter(
      (other) => other.counted && !selfOf.has(other) && other.vote.group === group && other.vote.subcategory === subcategory && outside(ballot.voter, nominees(other.vote.nomineeId)),
    ).length;
    if (others >= SELF_VOTE_OUTSIDE) continue;
    verdict.counted = false;
    verdict.reason = 'self_vote';
    const practice = ballot.voter.practice ? ` outside ${ballot.voter.practice}` : ' with a known practice';
    verdict.detail = `${how}; the ballot names ${others} other nominee${others === 1 ? '' : 's'}${practice} in ${subcategory}, the rule asks for ${SELF_VOTE_OUTSIDE}`;
  }
  return verdicts;
}
