import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { WriteInDecisionRow } from '../../server/db/tables/write-in-decisions.table.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { personOf } from '../../survey/people/secrets.ts';
import { decisionKey, writeInDecisionsInForce } from '../writeins/writeins.repository.ts';
import { answersByField, childRows, nominationRows, readBallots, type StoredBallot } from '../ballots/ballot-reader.ts';
import { identityKeys, threadRegister } from './identities.ts';
import { nameKey, nameWords } from '../../survey/nominees/name-key.ts';
import type { TallyConfig } from '../../survey/config/tally.struct.ts';
import {
  DEFAULT_TALLY,
  EXCLUSION_REASONS,
  flagsOf,
  judgeBallot,
  reasonsOf,
  type ExclusionReason,
  type NomineeFacts,
  type OperatorExclusion,
  type Verdict,
  type Vote,
} from './rules.ts';
import { voterFieldNames, voterFields } from '../../survey/people/voter.ts';
import { voterOf, type Voter } from './voter.ts';
import type { BallotPseudonymRow } from '../../server/db/tables/ballot-pseudonyms.table.ts';
import { pseudonym } from '../../server/tokens.ts';
import { anyPseudonyms, pseudonymsOf } from '../voters/voters.repository.ts';

/** One nominee's count in one sub-category. */
export interface TallyRow {
  group: string;
  subcategory: string;
  nomineeId: string;
  nomineeName: string;
  practice: string;
  counted: number;
  /** The counted votes' points: the same as `counted` unless the methodology weighs slots (absent: `counted`). */
  points?: number;
  /** Excluded votes by reason: every reason the tally can give (Tally.reasons), no other. */
  excluded: Partial<Record<ExclusionReason, number>>;
  /** Counted votes that a rule set to `flag` marks, by reason. */
  flagged?: Partial<Record<ExclusionReason, number>>;
}

/** A vote that was not counted, with the ballot it came from: one line of the exclusions report. */
export interface Exclusion {
  ballotId: string;
  submittedAt: string;
  verdict: Verdict;
  nomineeName: string;
}

/** What a tally found, besides the rows. */
export interface TallyTotals {
  ballots: number;
  ballotsCounted: number;
  /** Ballots a later ballot of the same voter replaced (`amend: until_close`): kept, never counted, not among `ballots`. */
  ballotsReplaced: number;
  votesCounted: number;
  /** Excluded votes by reason: every reason the tally can give, no other. */
  excluded: Partial<Record<ExclusionReason, number>>;
  /** Write-ins no decision covers yet: not votes until reconciled. */
  writeInsPending: number;
  writeInsRejected: number;
}

/** A finished tally: rows per nominee and sub-category, and the totals. */
export interface Tally {
  rows: TallyRow[];
  totals: TallyTotals;
  /** The methodology it counted by. */
  rules?: TallyConfig;
  /** The reasons it can give (the CSV's `excluded_…` columns) and the rules that flag. */
  reasons?: readonly ExclusionReason[];
  flags?: readonly ExclusionReason[];
  /** Counted ballots with a counted vote in the sub-category, by `group\u0000subcategory`: what `min_share` is a share of. */
  subcategoryBallots?: ReadonlyMap<string, number>;
}

/** What the tally reads besides the database. */
export interface TallyInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  /**
   * Ballots an operator took out of the count, by id (`results exclude`): their votes are
   * excluded as `operator_excluded`, and they are left out of the duplicate register as demo
   * ballots are, so that the same person's next ballot stands.
   */
  excludedBallots?: ReadonlyMap<string, OperatorExclusion>;
  /** Called for every vote not counted, in the order ballots were received. */
  onExclusion?: (exclusion: Exclusion) => void | Promise<void>;
  /** Called for every ballot with how many votes it carries (counted or not). */
  onVerdicts?: (ballotId: string, votes: number) => void;
  /** Called for every ballot, in the order received, with the verdict on each of its votes (its receipt read too): the published ledger's line. */
  onBallot?: (ballot: StoredBallot, verdicts: readonly Verdict[]) => void | Promise<void>;
  /** Called after every page with the ballots read so far. */
  onProgress?: (ballots: number) => void;
  pageSize?: number;
  /**
   * The survey's pseudonym key, once `purge-personal` has made one: every ballot's email and
   * license are then compared by their keyed hashes, which is all a purged ballot has left.
   */
  pseudonymKey?: Buffer;
}

/** A count per reason, all zero: the reasons given, every reason by default. */
const noExclusions = (reasons: readonly ExclusionReason[] = EXCLUSION_REASONS): Partial<Record<ExclusionReason, number>> =>
  Object.fromEntries(reasons.map((reason) => [reason, 0]));

/** The points a vote earns when counted: its slot's (a write-in, the last slot's). */
export const votePoints = (rules: Pick<TallyConfig, 'points'>, vote: Pick<Vote, 'slot'>): number =>
  rules.points[Math.min(vote.slot ?? rules.points.length, rules.points.length) - 1];

/** The nominees the tally knows: the list, and the new nominees write-in decisions created. */
export function nomineeFacts(nominees: readonly Nominee[], decisions: Iterable<WriteInDecisionRow>): Map<string, NomineeFacts> {
  const facts = new Map<string, NomineeFacts>(
    nominees.map((nominee) => [
      nominee.id,
      {
        name: nominee.name,
        words: nameWords(nominee.name),
        practice: nominee.practice,
        license: nominee.license,
        specialty: nominee.specialty,
        city: nominee.city,
      },
    ]),
  );
  for (const decision of decisions) {
    if (decision.action === 'new' && decision.nominee_id && !facts.has(decision.nominee_id)) {
      const name = decision.nominee_name ?? decision.nominee_id;
      facts.set(decision.nominee_id, { name, words: nameWords(name), practice: decision.nominee_practice ?? undefined });
    }
  }
  return facts;
}

/**
 * A ballot's votes: its filled slots (the array given, added to), then its write-ins (group,
 * sub-category, text) that a decision counts for a nominee; the others are counted in `totals`
 * as pending or rejected.
 */
export function votesOf(
  slots: Vote[],
  writeIns: Iterable<readonly [string, string, string]>,
  decisions: ReadonlyMap<string, WriteInDecisionRow>,
  totals: Pick<TallyTotals, 'writeInsPending' | 'writeInsRejected'>,
): Vote[] {
  const votes = slots;
  for (const [group, subcategory, name] of writeIns) {
    const decision = decisions.get(decisionKey(group, subcategory, nameKey(name)));
    if (!decision) totals.writeInsPending++;
    else if (decision.action === 'reject' || !decision.nominee_id) totals.writeInsRejected++;
    else votes.push({ group, subcategory, nomineeId: decision.nominee_id, source: 'write-in', writeIn: name });
  }
  return votes;
}

/** A ballot's filled slots as votes. */
const slotVotes = (ballot: StoredBallot): Vote[] =>
  nominationRows(ballot.children.nominations, (group, subcategory, slot, nomineeId): Vote => ({ group, subcategory, nomineeId, source: 'slot', slot }));

/** For a purged ballot, the nominee id and name matches kept at purge time, which the self-vote rule reads instead of the name. */
function purgedVoter(voter: Voter, purged: BallotPseudonymRow | undefined): Voter {
  if (!purged) return voter;
  return { ...voter, nomineeId: purged.nominee_id ?? voter.nomineeId, selfMatches: JSON.parse(purged.self_nominee_ids) as Record<string, string> };
}

/**
 * The email and license a ballot is told apart by: as written, or, once the survey has a
 * pseudonym key, as keyed hashes (stored for a purged ballot, computed for any other), so that
 * purged and unpurged ballots still compare.
 */
function identityOf(voter: Voter, purged: BallotPseudonymRow | undefined, key: Buffer | undefined): { email: string; license: string } {
  if (purged) return { email: purged.email_key ?? '', license: purged.license_key ?? '' };
  if (!key) return voter;
  return { email: voter.email && pseudonym(key, 'email', voter.email), license: voter.license && pseudonym(key, 'license', voter.license) };
}

/**
 * Counts a survey's votes with the integrity rules applied (see rules.ts), a page of ballots
 * at a time in the order they were received: memory holds one page, the nominees and the
 * counts, however many ballots there are; who has voted is kept on disk (threadRegister).
 * Runs on one connection of `db`.
 */
export async function tallySurvey(db: Kysely<Database>, input: TallyInput): Promise<Tally> {
  const { survey, prepopulation } = input;
  const rules = survey.config.tally ?? DEFAULT_TALLY;
  const decisions = await writeInDecisionsInForce(db, survey.config.project_id);
  const facts = nomineeFacts(input.nominees, decisions.values());
  const fields = voterFields(survey.config);
  const reasons = reasonsOf(rules);
  const flags = flagsOf(rules);
  // Rows by sub-category (`group\u0000subcategory`), then nominee id: a vote looks up two short keys rather than building one.
  const counts = new Map<string, { rows: Map<string, TallyRow>; ballots: number }>();
  const subOf = new Map<string, Map<string, { rows: Map<string, TallyRow>; ballots: number }>>();
  const subcategory = (group: string, name: string) => {
    let byName = subOf.get(group);
    if (!byName) subOf.set(group, (byName = new Map()));
    let sub = byName.get(name);
    if (!sub) {
      sub = { rows: new Map(), ballots: 0 };
      byName.set(name, sub);
      counts.set(`${group}\u0000${name}`, sub);
    }
    return sub;
  };
  const totals: TallyTotals = {
    ballots: 0,
    ballotsCounted: 0,
    ballotsReplaced: 0,
    votesCounted: 0,
    excluded: noExclusions(reasons),
    writeInsPending: 0,
    writeInsRejected: 0,
  };
  const screened = new Set(rules.duplicates);
  const lookup = (id: string) => facts.get(id);
  const pointsOf = (vote: Vote) => votePoints(rules, vote);

  return db.connection().execute(async (connection) => {
    const register = threadRegister();
    try {
      const answerFields = voterFieldNames(fields);
      const answersOf = answersByField(answerFields);
      // Only a survey `purge-personal` has been through has pseudonym rows: the others skip a query a page.
      const purgedAny = await anyPseudonyms(connection, survey.config.project_id);
      const pages = readBallots(connection, survey.config.project_id, {
        pageSize: input.pageSize,
        answerFields,
        children: ['nominations', 'writeIns'],
        receipts: Boolean(input.onBallot),
      });
      let counting: (() => Promise<void>) | undefined;
      for await (const read of pages) {
        // A replaced ballot is its voter's earlier word: kept for the record, never counted.
        const page = read.filter((ballot) => ballot.status === 'current');
        totals.ballotsReplaced += read.length - page.length;
        const purged = purgedAny
          ? await pseudonymsOf(
              connection,
              page.map((ballot) => ballot.id),
            )
          : new Map<string, BallotPseudonymRow>();
        const voters = page.map((ballot) =>
          purgedVoter(voterOf(fields, answersOf(ballot), personOf(prepopulation, ballot.personal_secret ?? undefined)), purged.get(ballot.id)),
        );
        const counted = page.map((ballot) => ballot.link !== 'demo' && !input.excludedBallots?.has(ballot.id));
        const candidates = page.flatMap((ballot, i) => {
          if (!counted[i]) return [];
          const { email, license } = identityOf(voters[i], purged.get(ballot.id), input.pseudonymKey);
          return [
            {
              id: ballot.id,
              keys: identityKeys(
                screened.has('secret') ? ballot.personal_secret : null,
                screened.has('email') ? (ballot.verified_email ?? email) : '',
                screened.has('license') ? license : '',
              ),
            },
          ];
        });
        // The register answers for this page while the page before is counted.
        const checked = register.check(candidates);
        checked.catch(() => undefined);
        const count = async () => {
          const repeats = await checked;
          const duplicateOf = new Map(candidates.map((candidate, i) => [candidate.id, repeats[i]]));
          // The ledger has a line for a replaced ballot too, in its place: its votes, none counted.
          let next = 0;
          const replacedUntil = async (ballot: StoredBallot | undefined) => {
            for (; next < read.length && read[next] !== ballot; next++) {
              const replaced = read[next];
              const votes = votesOf(slotVotes(replaced), childRows<[string, string, string]>(replaced.children.writeIns), decisions, {
                writeInsPending: 0,
                writeInsRejected: 0,
              });
              await input.onBallot?.(
                replaced,
                votes.map((vote) => ({ vote, counted: false })),
              );
            }
            next++;
          };
          for (const [i, ballot] of page.entries()) {
            if (input.onBallot) await replacedUntil(ballot);
            const verdicts = judgeBallot(
              {
                id: ballot.id,
                demo: ballot.link === 'demo',
                excluded: input.excludedBallots?.get(ballot.id),
                duplicateOf: duplicateOf.get(ballot.id),
                voter: voters[i],
                votes: votesOf(slotVotes(ballot), childRows<[string, string, string]>(ballot.children.writeIns), decisions, totals),
              },
              lookup,
              rules,
            );
            totals.ballots++;
            input.onVerdicts?.(ballot.id, verdicts.length);
            if (counted[i] && !duplicateOf.get(ballot.id)) totals.ballotsCounted++;
            const named: Array<{ ballots: number }> = [];
            for (const verdict of verdicts) {
              const { group, subcategory: name, nomineeId } = verdict.vote;
              const sub = subcategory(group, name);
              let row = sub.rows.get(nomineeId);
              if (!row) {
                const nominee = facts.get(nomineeId);
                row = {
                  group,
                  subcategory: name,
                  nomineeId,
                  nomineeName: nominee?.name ?? '',
                  practice: nominee?.practice ?? '',
                  counted: 0,
                  points: 0,
                  excluded: noExclusions(reasons),
                  flagged: noExclusions(flags),
                };
                sub.rows.set(nomineeId, row);
              }
              if (verdict.counted) {
                row.counted++;
                row.points! += pointsOf(verdict.vote);
                totals.votesCounted++;
                if (!named.includes(sub)) named.push(sub);
                if (verdict.flag) {
                  row.flagged![verdict.flag]!++;
                  await input.onExclusion?.({ ballotId: ballot.id, submittedAt: ballot.created_at, verdict, nomineeName: row.nomineeName });
                }
              } else {
                row.excluded[verdict.reason!]!++;
                totals.excluded[verdict.reason!]!++;
                await input.onExclusion?.({ ballotId: ballot.id, submittedAt: ballot.created_at, verdict, nomineeName: row.nomineeName });
              }
            }
            for (const sub of named) sub.ballots++;
            await input.onBallot?.(ballot, verdicts);
          }
          if (input.onBallot) await replacedUntil(undefined);
          input.onProgress?.(totals.ballots);
        };
        await counting?.();
        counting = count;
      }
      await counting?.();
    } finally {
      await register.close();
    }
    const rows = [...counts.values()].flatMap((sub) => [...sub.rows.values()]);
    const subcategoryBallots = new Map([...counts].map(([key, sub]) => [key, sub.ballots]));
    return { rows, totals, rules, reasons, flags, subcategoryBallots };
  });
}
