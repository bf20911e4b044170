import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { tallySurvey, type Exclusion } from '../../../src/results/tally/tally.ts';
import { rankTally, tallyCsv } from '../../../src/results/tally/tally-report.ts';
import { personalFieldNames, purgePersonal } from '../../../src/results/voters/purge.ts';
import { peerCheck, scratchDatabase, storeBallots, storePeerCheck } from '../../support/results-db.ts';
import type { HandBallot } from '../../support/peer-check-ballots.ts';

const { survey, nominees, prepopulation } = peerCheck();
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];
const key = randomBytes(32);

/** Chen Wei, known by name alone, names himself and one outsider: a self-vote only the name reveals. */
const CHEN: HandBallot = {
  at: '2030-01-01T09:45:00Z',
  answers: { 'name-first': 'Chen', 'name-last': 'Wei', email: 'chen@example.org', 'medical-practice': 'Lakeside Group' },
  votes: { Cardiology: ['c-3', 'c-2'] },
};

async function tally(pseudonymKey?: Buffer) {
  const exclusions: Exclusion[] = [];
  const result = await tallySurvey(db, { survey, nominees, prepopulation, pseudonymKey, onExclusion: (e) => void exclusions.push(e) });
  return {
    csv: tallyCsv(rankTally(survey.config, result, { top: 2 })),
    exclusions: exclusions.map((e) => [e.ballotId, e.verdict.vote.nomineeId, e.verdict.reason, e.verdict.detail]),
  };
}

const personalAnswers = async () =>
  Number(
    (
      await db
        .selectFrom('answers')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('field', 'in', personalFieldNames(survey))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storePeerCheck(db, [CHEN]);
});
afterAll(() => scratch?.close());

describe('purge-personal', () => {
  test('the personal fields are those marked personal, never the workplace', () => {
    expect(personalFieldNames(survey)).toEqual(['name-first', 'name-last', 'medical-license', 'email']);
  });

  test('removes the personal answers and leaves the tally exactly as it was, exclusions and their reasons too', async () => {
    const before = await tally();
    expect(before.exclusions).toContainEqual([ids[9], 'c-3', 'self_vote', expect.stringMatching(/^the voter's name is the nominee's/)]);
    const held = await personalAnswers();

    const dry = await purgePersonal(db, { survey, nominees, prepopulation, key, dryRun: true });
    expect(dry).toEqual({ ballots: 10, rows: { answers: held, uploads: 0, refused_ballots: 0 }, files: [] });
    expect(await personalAnswers()).toBe(held);

    const done = await db.transaction().execute((trx) => purgePersonal(trx, { survey, nominees, prepopulation, key, dryRun: false }));
    expect(done.ballots).toBe(10);
    expect(await personalAnswers()).toBe(0);
    expect(await db.selectFrom('answers').select('value').where('field', '=', 'medical-practice').execute()).not.toHaveLength(0);
    const stored = JSON.stringify(await db.selectFrom('ballot_pseudonyms').selectAll().execute());
    for (const value of ['carl@example.org', 'MD5000', 'Chen']) expect(stored).not.toContain(value);

    expect(await tally(key)).toEqual(before);
    // Purging again finds nothing left to do.
    expect((await purgePersonal(db, { survey, nominees, prepopulation, key, dryRun: false })).ballots).toBe(0);
  });

  test("a ballot that comes in after the purge is still known by the purged ballots' keys, with the key alone", async () => {
    const [late] = await storeBallots(db, [
      { at: '2030-01-02T10:00:00Z', answers: { 'name-first': 'Carl', 'name-last': 'Lee', email: 'Carl@Example.org' }, votes: { Dermatology: ['d-1'] } },
    ]);
    expect((await tally(key)).exclusions).toContainEqual([late, 'd-1', 'duplicate_ballot', `same email as ballot ${ids[0]}, which stands`]);
    expect((await tally()).exclusions.some(([ballot]) => ballot === late)).toBe(false);
  });

  test('a refused ballot keeps its reason and votes but loses its personal answers and file names', async () => {
    const fields = [
      ['name-first', 'Rita'],
      ['email', 'rita@example.org'],
      ['medical-practice', 'Northgate Clinic'],
      ['nominations[Medicine][Cardiology][1]', 'c-1'],
    ];
    await db
      .insertInto('refused_ballots')
      .values({
        id: 'refused-1',
        project_id: survey.config.project_id,
        received_at: '2030-01-03T10:00:00Z',
        status: 410,
        reason: 'expired',
        problems: '[]',
        secret: null,
        fields: JSON.stringify(fields),
        files: JSON.stringify([{ field: 'headshot', name: 'rita.png', type: 'image/png', size: 10 }]),
        fingerprint: 'f-1',
        admitted_at: null,
        admitted_by: null,
        admit_reason: null,
        ballot_id: null,
      })
      .execute();
    const dry = await purgePersonal(db, { survey, nominees, prepopulation, key, dryRun: true });
    expect(dry.rows.refused_ballots).toBe(1);
    expect((await db.selectFrom('refused_ballots').select('fields').executeTakeFirstOrThrow()).fields).toContain('rita@example.org');

    await purgePersonal(db, { survey, nominees, prepopulation, key, dryRun: false });
    const row = await db.selectFrom('refused_ballots').selectAll().executeTakeFirstOrThrow();
    expect(JSON.parse(row.fields)).toEqual([
      ['medical-practice', 'Northgate Clinic'],
      ['nominations[Medicine][Cardiology][1]', 'c-1'],
    ]);
    expect(row).toMatchObject({ files: '[]', reason: 'expired' });
    expect((await purgePersonal(db, { survey, nominees, prepopulation, key, dryRun: true })).rows.refused_ballots).toBe(0);
  });
});
