import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { WriteInDecisionRow } from '../db/write-in-decisions.table.ts';
import type { PersonValues } from '../../survey/config.struct.ts';
import type { LoadedSurvey } from '../../survey/loader.ts';
import type { Nominee } from '../../survey/nominee.struct.ts';
import { personOf } from '../../survey/secrets.ts';
import { decisionKey, writeInDecisionsInForce } from '../repositories/write-in-decisions.repository.ts';
import { ballotPages, type FullBallot } from './ballot-pages.ts';
import { databaseRegister, identityKeys, type IdentityRegister } from './identities.ts';
import { nameKey } from './identity-keys.ts';
import { EXCLUSION_REASONS, judgeBallot, type ExclusionReason, type NomineeFacts, type OperatorExclusion, type Verdict, type Vote } from './rules.ts';
import { voterFieldNames, voterFields, voterOf, type Voter } from './voter.ts';
import type { BallotPseudonymRow } from '../db/ballot-pseudonyms.table.ts';
import { pseudonym } from '../tokens.ts';

/** One nominee's count in one sub-category. */
export interface TallyRow {
  group: string;
  subcategory: string;
  nomineeId: string;
  nomineeName: string;
  practice: string;
  counted: number;
  excluded: Record<ExclusionReason, number>;
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
  votesCounted: number;
  excluded: Record<ExclusionReason, number>;
  /** Write-ins no decision covers yet: not votes until reconciled. */
  writeInsPending: number;
  writeInsRejected: number;
}

/** A finished tally: rows per nominee and sub-category, and the totals. */
export interface Tally {
  rows: TallyRow[];
  totals: TallyTotals;
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
  /** Called after every page with the ballots read so far. */
  onProgress?: (ballots: number) => void;
  pageSize?: number;
  /** The duplicate register; a temporary table of the database by default. */
  register?: IdentityRegister;
  /**
   * The survey's pseudonym key, once `purge-personal` has made one: every ballot's email and
   * license are then compared by their keyed hashes, which is all a purged ballot has left.
   */
  pseudonymKey?: Buffer;
}

/** A count per reason, all zero. */
export const noExclusions = (): Record<ExclusionReason, number> => Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, 0])) as Record<ExclusionReason, number>;

/** The nominees the tally knows: the list, and the new nominees write-in decisions created. */
export function nomineeFacts(nominees: readonly Nominee[], decisions: Iterable<WriteInDecisionRow>): Map<string, NomineeFacts> {
  const facts = new Map<string, NomineeFacts>(nominees.map((nominee) => [nominee.id, { name: nominee.name, practice: nominee.practice, license: nominee.license }]));
  for (const decision of decisions) {
    if (decision.action === 'new' && decision.nominee_id && !facts.has(decision.nominee_id)) {
      facts.set(decision.nominee_id, { name: decision.nominee_name ?? decision.nominee_id, practice: decision.nominee_practice ?? undefined });
    }
  }
  return facts;
}

/** A ballot's votes: its filled slots, then its write-ins that a decision counts for a nominee. */
export function votesOf(ballot: FullBallot, decisions: ReadonlyMap<string, WriteInDecisionRow>, totals: TallyTotals): Vote[] {
  const votes: Vote[] = ballot.nominations.map((n) => ({ group: n.category_group, subcategory: n.subcategory, nomineeId: n.nominee_id, source: 'slot' }));
  for (const writeIn of ballot.writeIns) {
    const decision = decisions.get(decisionKey(writeIn.category_group, writeIn.subcategory, nameKey(writeIn.name)));
    if (!decision) totals.writeInsPending++;
    else if (decision.action === 'reject' || !decision.nominee_id) totals.writeInsRejected++;
    else votes.push({ group: writeIn.category_group, subcategory: writeIn.subcategory, nomineeId: decision.nominee_id, source: 'write-in', writeIn: writeIn.name });
  }
  return votes;
}

/** The pseudonym rows of some ballots, by ballot id: those `purge-personal` has been through. */
export async function pseudonymsOf(db: Kysely<Database>, ballotIds: readonly string[]): Promise<Map<string, BallotPseudonymRow>> {
  if (!ballotIds.length) return new Map();
  const rows = await db.selectFrom('ballot_pseudonyms').selectAll().where('ballot_id', 'in', ballotIds).execute();
  return new Map(rows.map((row) => [row.ballot_id, row]));
}

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
 * counts, however many ballots there are. Runs on one connection, for the register's
 * temporary table.
 */
export async function tallySurvey(db: Kysely<Database>, input: TallyInput): Promise<Tally> {
  const { survey, prepopulation } = input;
  const decisions = await writeInDecisionsInForce(db, survey.config.project_id);
  const facts = nomineeFacts(input.nominees, decisions.values());
  const fields = voterFields(survey.config);
  const counts = new Map<string, TallyRow>();
  const totals: TallyTotals = { ballots: 0, ballotsCounted: 0, votesCounted: 0, excluded: noExclusions(), writeInsPending: 0, writeInsRejected: 0 };

  return db.connection().execute(async (connection) => {
    const owned = input.register ? undefined : await databaseRegister(connection);
    const register = input.register ?? owned!;
    try {
      for await (const page of ballotPages(connection, survey.config.project_id, { pageSize: input.pageSize, answerFields: voterFieldNames(fields) })) {
        const purged = await pseudonymsOf(connection, page.map((ballot) => ballot.id));
        const voters = page.map((ballot) => {
          const answers = new Map<string, string>();
          for (const answer of ballot.answers) if (answer.position === 0) answers.set(answer.field, answer.value);
          return purgedVoter(voterOf(fields, answers, personOf(prepopulation, ballot.personal_secret ?? undefined)), purged.get(ballot.id));
        });
        const counted = page.map((ballot) => ballot.link !== 'demo' && !input.excludedBallots?.has(ballot.id));
        const candidates = page.flatMap((ballot, i) => {
          if (!counted[i]) return [];
          const { email, license } = identityOf(voters[i], purged.get(ballot.id), input.pseudonymKey);
          return [{ id: ballot.id, keys: identityKeys(ballot.personal_secret, email, license) }];
        });
        const repeats = await register.check(candidates);
        const duplicateOf = new Map(candidates.map((candidate, i) => [candidate.id, repeats[i]]));
        for (const [i, ballot] of page.entries()) {
          const verdicts = judgeBallot(
            { id: ballot.id, demo: ballot.link === 'demo', excluded: input.excludedBallots?.get(ballot.id), duplicateOf: duplicateOf.get(ballot.id), voter: voters[i], votes: votesOf(ballot, decisions, totals) },
            (id) => facts.get(id),
          );
          totals.ballots++;
          input.onVerdicts?.(ballot.id, verdicts.length);
          if (counted[i] && !duplicateOf.get(ballot.id)) totals.ballotsCounted++;
          for (const verdict of verdicts) {
            const { group, subcategory, nomineeId } = verdict.vote;
            const key = `${group}\u0000${subcategory}\u0000${nomineeId}`;
            let row = counts.get(key);
            if (!row) {
              const nominee = facts.get(nomineeId);
              row = { group, subcategory, nomineeId, nomineeName: nominee?.name ?? '', practice: nominee?.practice ?? '', counted: 0, excluded: noExclusions() };
              counts.set(key, row);
            }
            if (verdict.counted) {
              row.counted++;
              totals.votesCounted++;
            } else {
              row.excluded[verdict.reason!]++;
              totals.excluded[verdict.reason!]++;
              await input.onExclusion?.({ ballotId: ballot.id, submittedAt: ballot.created_at, verdict, nomineeName: row.nomineeName });
            }
          }
        }
        input.onProgress?.(totals.ballots);
      }
    } finally {
      await owned?.drop();
    }
    return { rows: [...counts.values()], totals };
  });
}
