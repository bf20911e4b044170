import { create } from 'superstruct';
import { TallyConfig } from '../../survey/config/tally.struct.ts';
import { repeatOnBallot } from '../../survey/ballots/votes.ts';
import { workplaceKey } from '../../server/stats/workplaces.ts';
import { licenseKey, sameName } from './identity-keys.ts';
import { nameWords } from '../../survey/nominees/name-key.ts';
import type { Voter } from './voter.ts';

/** Why a vote is not counted (or, under a rule set to `flag`, why it is marked). */
export type ExclusionReason =
  | 'demo_ballot'
  | 'operator_excluded'
  | 'duplicate_ballot'
  | 'not_on_list'
  | 'repeat_on_ballot'
  | 'outside_subcategory'
  | 'outside_region'
  | 'self_vote'
  | 'same_practice';

/** Every reason, in the order the rules apply and the reports list them. */
export const EXCLUSION_REASONS: readonly ExclusionReason[] = [
  'demo_ballot',
  'operator_excluded',
  'duplicate_ballot',
  'not_on_list',
  'repeat_on_ballot',
  'outside_subcategory',
  'outside_region',
  'self_vote',
  'same_practice',
];

/** The reasons every tally reports, whatever its methodology: the columns the tally CSV has always had. */
export const BASE_REASONS: readonly ExclusionReason[] = [
  'demo_ballot',
  'operator_excluded',
  'duplicate_ballot',
  'not_on_list',
  'repeat_on_ballot',
  'self_vote',
];

/** What each reason means, for the reports. */
export const REASON_TEXT: Record<ExclusionReason, string> = {
  demo_ballot: 'sent with the demo secret, which is for trying the survey out',
  operator_excluded: 'an operator took the whole ballot out of the count (results exclude), for the reason recorded in the audit trail',
  duplicate_ballot: 'a later ballot from someone who had voted already (same personal link, email or license); the first one stands',
  not_on_list: 'names a nominee id that is not on the nominee list',
  repeat_on_ballot: 'the same nominee twice in one sub-category of one ballot (a slot and a reconciled write-in); counted once',
  outside_subcategory: "the nominee's listed field is not the sub-category they were named in",
  outside_region: "the nominee is not in the voter's region",
  self_vote: 'the voter nominated themselves without naming two other nominees outside their practice in that sub-category',
  same_practice: 'the voter named a colleague of their own practice, which the methodology does not count',
};

/** What a reason means under a methodology: REASON_TEXT, with the self-vote rule's own number. */
export function reasonText(reason: ExclusionReason, rules: TallyConfig): string {
  if (reason !== 'self_vote' || (rules.self_vote.rule === 'outside_votes' && rules.self_vote.outside_votes === 2)) return REASON_TEXT[reason];
  if (rules.self_vote.rule === 'exclude') return 'the voter nominated themselves, which the methodology never counts';
  const n = rules.self_vote.outside_votes;
  return `the voter nominated themselves without naming ${n} other nominee${n === 1 ? '' : 's'} outside their practice in that sub-category`;
}

/** The methodology of a survey that declares none: the sample rules (docs/spec.md, "Counting"). */
export const DEFAULT_TALLY: TallyConfig = create({}, TallyConfig);

/** The reasons a tally under this methodology can exclude a vote for, in report order: the base ones, and those of the rules that exclude. */
export function reasonsOf(rules: TallyConfig): ExclusionReason[] {
  return EXCLUSION_REASONS.filter(
    (reason) =>
      BASE_REASONS.includes(reason) ||
      (reason === 'outside_subcategory' && rules.subcategory_match.rule === 'exclude') ||
      (reason === 'outside_region' && rules.region_match.rule === 'exclude') ||
      (reason === 'same_practice' && rules.same_practice !== 'count'),
  );
}

/** The reasons under a rule set to `flag`: their votes count, and are marked for the publication to review. */
export function flagsOf(rules: TallyConfig): ExclusionReason[] {
  return [
    ...(rules.subcategory_match.rule === 'flag' ? (['outside_subcategory'] as const) : []),
    ...(rules.region_match.rule === 'flag' ? (['outside_region'] as const) : []),
  ];
}

/** One vote of a ballot: a filled slot, or a write-in reconciled to a nominee. */
export interface Vote {
  group: string;
  subcategory: string;
  nomineeId: string;
  source: 'slot' | 'write-in';
  /** The write-in's text, for a vote from a write-in. */
  writeIn?: string;
  /** The slot, 1 first, for a vote from a slot: it earns that slot's points. */
  slot?: number;
}

/** What the rules know of a nominee. */
export interface NomineeFacts {
  name: string;
  /** The name's words (nameWords), when worked out once beforehand. */
  words?: string[];
  practice?: string;
  license?: string;
  specialty?: string;
  city?: string;
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
  /** An operator's exclusion of the whole ballot: their reason, and the audit entry that records it. */
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
  /** A rule set to `flag` that this counted vote breaks: the vote counts, and is marked. */
  flag?: ExclusionReason;
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
  if (!sameName(voter.nameWords, nominee.words ?? nameWords(nominee.name))) return undefined;
  const listed = licenseKey(nominee.license);
  if (listed && voter.license) return listed === voter.license ? `the voter's name and license are the nominee's` : undefined;
  return `the voter's name is the nominee's (no license to compare)`;
}

/** True when a nominee's practice is known and is not the voter's. */
function outside(voter: Voter, nominee: NomineeFacts | undefined): boolean {
  const practice = workplaceKey(nominee?.practice ?? '');
  return practice !== '' && practice !== workplaceKey(voter.practice);
}

/** A text as rules compare it: spaces collapsed, case folded; blank when unknown. */
const same = (a: string | undefined, b: string | undefined) => {
  const x = workplaceKey(a ?? '');
  const y = workplaceKey(b ?? '');
  return x === '' || y === '' || x === y;
};

/** Marks a counted vote as breaking a rule: excluded under `exclude`, flagged under `flag`. */
function breaks(verdict: Verdict, mode: 'flag' | 'exclude', reason: ExclusionReason, detail: string): void {
  if (mode === 'exclude') Object.assign(verdict, { counted: false, reason, detail });
  else Object.assign(verdict, { flag: reason, detail: `counted, flagged: ${detail}` });
}

/**
 * Judges every vote of one ballot, in the order of EXCLUSION_REASONS: a demo ballot counts
 * nothing; nor does a ballot an operator excluded, or a duplicate ballot; a vote for an id the
 * list lacks is not counted; a nominee named twice in one sub-category counts once; then the
 * methodology's rules (`rules`, the sample rules by default): the sub-category and region
 * matches, the self-vote rule and the same-practice rule.
 */
export function judgeBallot(ballot: BallotToJudge, nominees: (id: string) => NomineeFacts | undefined, rules: TallyConfig = DEFAULT_TALLY): Verdict[] {
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
  const { voter, votes } = ballot;
  const verdicts: Verdict[] = [];
  // Each vote's nominee, looked up once: the self-vote check below reads it again for every counted vote.
  const nomineeOf: Array<NomineeFacts | undefined> = [];
  for (let i = 0; i < votes.length; i++) {
    const vote = votes[i];
    nomineeOf.push(nominees(vote.nomineeId));
    if (!nomineeOf[i]) verdicts.push({ vote, counted: false, reason: 'not_on_list', detail: `no nominee has the id ${vote.nomineeId}` });
    else if (repeatOnBallot(votes, i) >= 0)
      verdicts.push({ vote, counted: false, reason: 'repeat_on_ballot', detail: `${vote.nomineeId} is already named in ${vote.subcategory} on this ballot` });
    else verdicts.push({ vote, counted: true });
  }
  const { subcategory_match: bySubcategory, region_match: byRegion } = rules;
  for (const verdict of bySubcategory.rule === 'off' && byRegion.rule === 'off' ? [] : verdicts) {
    if (!verdict.counted) continue;
    const nominee = nominees(verdict.vote.nomineeId)!;
    const listed = nominee[bySubcategory.nominee_field];
    if (bySubcategory.rule !== 'off' && !same(listed, verdict.vote.subcategory)) {
      breaks(verdict, bySubcategory.rule, 'outside_subcategory', `the nominee's ${bySubcategory.nominee_field} is ${listed}, not ${verdict.vote.subcategory}`);
    }
    const place = nominee[byRegion.nominee_field];
    if (verdict.counted && byRegion.rule !== 'off' && !same(place, voter.region)) {
      breaks(verdict, byRegion.rule, 'outside_region', `the nominee's ${byRegion.nominee_field} is ${place}, the voter's region ${voter.region}`);
    }
  }
  const selfOf = new Map<Verdict, string>();
  for (let i = 0; i < verdicts.length; i++) {
    const verdict = verdicts[i];
    const how = verdict.counted ? selfMatch(voter, verdict.vote.nomineeId, nomineeOf[i]!) : undefined;
    if (how) selfOf.set(verdict, how);
  }
  if (selfOf.size === 0 && rules.same_practice === 'count') return verdicts;
  const outsiders = (group: string, subcategory: string) =>
    verdicts.filter(
      (other) =>
        other.counted &&
        !selfOf.has(other) &&
        other.vote.group === group &&
        other.vote.subcategory === subcategory &&
        outside(voter, nominees(other.vote.nomineeId)),
    ).length;
  const needed = rules.self_vote.outside_votes;
  for (const [verdict, how] of selfOf) {
    const { group, subcategory } = verdict.vote;
    if (rules.self_vote.rule === 'exclude') {
      Object.assign(verdict, { counted: false, reason: 'self_vote', detail: `${how}; the methodology counts no self-vote` });
      continue;
    }
    const others = outsiders(group, subcategory);
    if (others >= needed) continue;
    verdict.counted = false;
    verdict.reason = 'self_vote';
    const practice = voter.practice ? ` outside ${voter.practice}` : ' with a known practice';
    verdict.detail = `${how}; the ballot names ${others} other nominee${others === 1 ? '' : 's'}${practice} in ${subcategory}, the rule asks for ${needed}`;
  }
  if (rules.same_practice !== 'count' && workplaceKey(voter.practice) !== '') {
    const colleagues = verdicts.filter(
      (v) => v.counted && !selfOf.has(v) && workplaceKey(nominees(v.vote.nomineeId)!.practice ?? '') === workplaceKey(voter.practice),
    );
    const matched = new Map<string, number>();
    for (const v of colleagues) {
      const key = `${v.vote.group}\u0000${v.vote.subcategory}`;
      if (!matched.has(key)) matched.set(key, outsiders(v.vote.group, v.vote.subcategory));
    }
    for (const verdict of colleagues) {
      const { group, subcategory } = verdict.vote;
      if (rules.same_practice === 'outside_match' && matched.get(`${group}\u0000${subcategory}`)! > 0) continue;
      verdict.counted = false;
      verdict.reason = 'same_practice';
      verdict.detail =
        rules.same_practice === 'exclude'
          ? `the nominee works at the voter's practice, ${voter.practice}`
          : `the nominee works at the voter's practice, ${voter.practice}, and the ballot names no nominee outside it in ${subcategory}`;
    }
  }
  return verdicts;
}
