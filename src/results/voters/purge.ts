import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { NewBallotPseudonym } from '../../server/db/tables/ballot-pseudonyms.table.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { allFields } from '../../survey/config/layout.ts';
import { personOf } from '../../survey/people/secrets.ts';
import { writeInDecisionsInForce } from '../writeins/writeins.repository.ts';
import { pseudonym } from '../../server/tokens.ts';
import { refusedBallots } from '../../server/intake/refused-ballots.repository.ts';
import { countAnswers, deleteAnswers, deleteUploads, insertPseudonyms, pseudonymsOf, setRefusedFields, uploadIds } from './voters.repository.ts';
import { answersByField, childRows, nominationRows, readBallots, type StoredBallot } from '../ballots/ballot-reader.ts';
import { selfMatch, type Vote } from '../tally/rules.ts';
import { nomineeFacts, votesOf } from '../tally/tally.ts';
import { voterFieldNames, voterFields } from '../../survey/people/voter.ts';
import { voterOf } from '../tally/voter.ts';
import { answerNames } from '../../survey/config/fields.ts';

/** What one step of a purge was given: the ballots of this page, the personal fields, whether to change anything. */
interface PurgeScope {
  ballotIds: string[];
  personalFields: string[];
  dryRun: boolean;
}

/** One kind of personal data a purge removes: a table, and how to clear a page of ballots from it. */
interface PurgeStep {
  /** The table, as the report names it. */
  table: string;
  /** Clears (or, in a dry run, counts) the personal rows of these ballots; answers the rows and the stored files concerned. */
  run(db: Kysely<Database>, scope: PurgeScope): Promise<{ rows: number; files: string[] }>;
}

/**
 * Every table of stored ballots that holds a voter's personal data, and how a purge clears it:
 * one list, so that a table added later is purged by adding an entry here. Refused ballots are
 * no ballots of the tally and are cleared apart (`purgeRefused`).
 */
const PURGE_STEPS: PurgeStep[] = [
  {
    table: 'answers',
    async run(db, { ballotIds, personalFields, dryRun }) {
      if (!personalFields.length) return { rows: 0, files: [] };
      const rows = dryRun ? await countAnswers(db, ballotIds, personalFields) : await deleteAnswers(db, ballotIds, personalFields);
      return { rows, files: [] };
    },
  },
  {
    table: 'uploads',
    async run(db, { ballotIds, dryRun }) {
      const files = await uploadIds(db, ballotIds);
      if (!dryRun && files.length) await deleteUploads(db, ballotIds);
      return { rows: files.length, files };
    },
  },
];

/**
 * Clears the personal answers of the survey's refused ballots (kept whole for the operator until
 * the vote is over) and the names of their files: the reason, the votes and the link stay, so the
 * operator still sees why each was refused. Answers the rows changed (or, in a dry run, to change).
 */
async function purgeRefused(db: Kysely<Database>, projectId: string, personalFields: string[], dryRun: boolean): Promise<number> {
  const personal = new Set(personalFields);
  let changed = 0;
  for (const row of await refusedBallots(db, projectId)) {
    const fields = (JSON.parse(row.fields) as Array<[string, string]>).filter(([name]) => !personal.has(name));
    const purged = JSON.stringify(fields);
    if (purged === row.fields && row.files === '[]') continue;
    changed++;
    if (!dryRun) await setRefusedFields(db, row.id, purged);
  }
  return changed;
}

/** The fields whose answers a purge removes: those marked `personal: true` (and a checkbox's "Other" text), never the workplace. */
export function personalFieldNames(survey: LoadedSurvey): string[] {
  return allFields(survey.config.layout)
    .filter((field) => field.personal && field.name !== survey.config.workplace_field)
    .flatMap(answerNames);
}

/** What a purge did, or would do in a dry run. */
export interface PurgeReport {
  ballots: number;
  /** Rows removed (or to remove) per table. */
  rows: Record<string, number>;
  /** Stored upload files to delete, by their stored name. */
  files: string[];
}

/** What a purge reads besides the database. */
export interface PurgeInput {
  survey: LoadedSurvey;
  nominees: readonly Nominee[];
  prepopulation: Record<string, PersonValues>;
  /** The survey's pseudonym key (HMAC). */
  key: Buffer;
  dryRun: boolean;
  now?: Date;
  onProgress?: (ballots: number) => void;
}

/**
 * Removes the personal answers and uploads of every ballot not purged yet, first keeping what
 * the tally's identity rules need of it (keyed hashes of the email and license, the voter's
 * nominee id, the ballot's nominees the voter's name matches): the tally after is the tally
 * before. Votes, workplaces and everything else stay. Run it in a transaction with its audit
 * entry; the files go after the commit.
 */
export async function purgePersonal(db: Kysely<Database>, input: PurgeInput): Promise<PurgeReport> {
  const { survey, key } = input;
  const personalFields = personalFieldNames(survey);
  const fields = voterFields(survey.config);
  const decisions = await writeInDecisionsInForce(db, survey.config.project_id);
  const facts = nomineeFacts(input.nominees, decisions.values());
  const report: PurgeReport = { ballots: 0, rows: Object.fromEntries([...PURGE_STEPS.map((step) => [step.table, 0]), ['refused_ballots', 0]]), files: [] };
  const purgedAt = (input.now ?? new Date()).toISOString();
  const answerFields = voterFieldNames(fields);
  const answersOf = answersByField(answerFields);
  let read = 0;
  // The ballots as they were before this purge (on SQLite, a snapshot read beside the transaction that changes them).
  for await (const page of readBallots(db, survey.config.project_id, { answerFields, children: ['nominations', 'writeIns'] })) {
    read += page.length;
    const done = await pseudonymsOf(
      db,
      page.map((ballot) => ballot.id),
    );
    const todo = page.filter((ballot) => !done.has(ballot.id));
    if (todo.length) {
      if (!input.dryRun) await insertPseudonyms(db, todo.map(pseudonymRow));
      for (const step of PURGE_STEPS) {
        const { rows, files } = await step.run(db, { ballotIds: todo.map((ballot) => ballot.id), personalFields, dryRun: input.dryRun });
        report.rows[step.table] += rows;
        report.files.push(...files);
      }
      report.ballots += todo.length;
    }
    input.onProgress?.(read);
  }
  report.rows.refused_ballots = await purgeRefused(db, survey.config.project_id, personalFields, input.dryRun);
  return report;

  function pseudonymRow(ballot: StoredBallot): NewBallotPseudonym {
    const voter = voterOf(fields, answersOf(ballot), personOf(input.prepopulation, ballot.personal_secret ?? undefined));
    const byName = { ...voter, nomineeId: undefined };
    const matches: Record<string, string> = {};
    const slots = nominationRows(
      ballot.children.nominations,
      (group, subcategory, _slot, nomineeId): Vote => ({ group, subcategory, nomineeId, source: 'slot' }),
    );
    const writeIns = childRows<[string, string, string]>(ballot.children.writeIns);
    for (const vote of votesOf(slots, writeIns, decisions, { writeInsPending: 0, writeInsRejected: 0 })) {
      const nominee = facts.get(vote.nomineeId);
      const how = nominee && selfMatch(byName, vote.nomineeId, nominee);
      if (how) matches[vote.nomineeId] = how;
    }
    return {
      ballot_id: ballot.id,
      email_key: voter.email ? pseudonym(key, 'email', voter.email) : null,
      license_key: voter.license ? pseudonym(key, 'license', voter.license) : null,
      nominee_id: voter.nomineeId ?? null,
      self_nominee_ids: JSON.stringify(matches),
      purged_at: purgedAt,
    };
  }
}
