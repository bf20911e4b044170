import { createHash, createSecretKey } from 'node:crypto';
import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databaseMigratedTo } from './helpers.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { ballotsPerDay, ballotsReceived, peopleTotals } from '../../src/server/console/console-views.repository.ts';
import { replacePeople, respondedCount } from '../../src/server/people/people.repository.ts';

// The participation counters' migration on a database that holds ballots and people already, on
// each database of the run: the days' counts filled from the ballots, the people whose personal
// link has a current ballot marked, and the groups counted when the people are next read.

const BEFORE = '20270121000000-people';
const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

let db: Kysely<Database>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ db, remove } = await databaseMigratedTo(BEFORE));
});
afterAll(() => remove?.());

describe('the participation counters on a database that has data', () => {
  test('count the ballots stored by day, and mark the people whose link has a current ballot', async () => {
    const ballot = (id: string, projectId: string, day: string, secret: string | null, replacedBy: string | null = null) => ({
      id,
      project_id: projectId,
      link: secret ? 'personal' : 'public',
      personal_secret: secret,
      created_at: `${day}T10:00:00.000Z`,
      replaced_by: replacedBy,
      replaced_at: replacedBy ? `${day}T11:00:00.000Z` : null,
    });
    await (db as Kysely<any>)
      .insertInto('ballots')
      .values([
        ballot('b1', 'p', '2027-03-01', null),
        ballot('b2', 'p', '2027-03-01', 'secret-ana-0001', 'b3'),
        ballot('b3', 'p', '2027-03-02', 'secret-ana-0001'),
        ballot('b4', 'p', '2027-03-02', 'secret-bo-00002'),
        ballot('b5', 'p', '2027-03-02', 'secret-gone-003'),
        ballot('b6', 'other', '2027-03-01', 'secret-cy-00004'),
      ])
      .execute();
    const person = (projectId: string, secret: string, position: number, specialty: string) => ({
      project_id: projectId,
      secret_hash: hash(secret),
      sealed_secret: 'sealed',
      email_key: '',
      licence_key: '',
      position,
      person: JSON.stringify({ specialty }),
    });
    await (db as Kysely<any>)
      .insertInto('people')
      .values([
        person('p', 'secret-ana-0001', 0, 'Cardiology'),
        person('p', 'secret-bo-00002', 1, 'Cardiology'),
        person('p', 'secret-cy-00004', 2, 'Pediatrics'),
      ])
      .execute();

    const done = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(done.error).toBeUndefined();
    expect(await ballotsReceived(db, 'p')).toBe(5);
    expect(await ballotsPerDay(db, 'p')).toEqual([
      { day: '2027-03-01', ballots: 2 },
      { day: '2027-03-02', ballots: 3 },
    ]);
    expect(await ballotsPerDay(db, 'other')).toEqual([{ day: '2027-03-01', ballots: 1 }]);
    const marked = await db.selectFrom('people').select(['secret_hash', 'responded']).where('project_id', '=', 'p').orderBy('position').execute();
    expect(marked.map((row) => Number(row.responded))).toEqual([1, 1, 0]);
    expect(await respondedCount(db, 'p')).toBe(2);
    // The groups wait for the people to be read again, which the changed digest brings about.
    expect(await peopleTotals(db, 'p')).toBeUndefined();
  });

  test('the people read again count everyone and each value from the current ballots', async () => {
    const people = {
      'secret-ana-0001': { specialty: 'Cardiology' },
      'secret-bo-00002': { specialty: 'Cardiology' },
      'secret-cy-00004': { specialty: 'Pediatrics' },
    };
    await replacePeople(db, 'p', [people], {
      digest: 'new',
      licenceField: 'medical-license',
      columns: ['specialty'],
      key: createSecretKey(Buffer.alloc(32, 1)),
      now: new Date(),
    });
    expect(await peopleTotals(db, 'p')).toEqual({ invited: 3, responded: 2 });
    const groups = await db
      .selectFrom('roster_groups')
      .select(['column_name', 'value', 'invited', 'responded'])
      .where('project_id', '=', 'p')
      .orderBy('id')
      .execute();
    expect(groups.map((row) => [row.column_name, row.value, Number(row.invited), Number(row.responded)])).toEqual([
      ['', '', 3, 2],
      ['specialty', 'Cardiology', 2, 2],
      ['specialty', 'Pediatrics', 1, 0],
    ]);
  });
});
