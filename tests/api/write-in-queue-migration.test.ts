import { Migrator, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { databaseMigratedTo } from './helpers.ts';
import { migrations } from '../../src/server/db/migrations/index.ts';
import type { Database } from '../../src/server/db/schema.ts';
import { writeInGroupId } from '../../src/server/intake/write-in-counts.repository.ts';

// The write-in queue's migration on a database that holds write-ins and decisions already, on
// each database of the run: each write-in's folded name filled, the write-ins counted by group and
// spelling (demonstration ballots left out), and each group marked with the decision in force,
// its nominee and the write-ins that arrived after it.

const BEFORE = '20270123100000-refused-ballots-pages';

let db: Kysely<Database>;
let remove: () => Promise<void>;

beforeAll(async () => {
  ({ db, remove } = await databaseMigratedTo(BEFORE));
});
afterAll(() => remove?.());

describe('the write-in queue on a database that has write-ins', () => {
  test('folds each name, counts the groups and spellings, and marks the decisions in force', async () => {
    const any = db as Kysely<any>;
    const ballot = (id: string, projectId: string, at: string, link = 'public') => ({
      id,
      project_id: projectId,
      link,
      personal_secret: null,
      created_at: `2027-03-01T${at}:00.000Z`,
    });
    await any
      .insertInto('ballots')
      .values([
        ballot('b1', 'p', '10:00'),
        ballot('b2', 'p', '10:01'),
        ballot('b3', 'p', '10:02', 'demo'),
        ballot('b4', 'p', '12:00'),
        ballot('b5', 'other', '10:00'),
      ])
      .execute();
    const writeIn = (ballotId: string, position: number, name: string, subcategory = 'Neurosurgery') => ({
      ballot_id: ballotId,
      position,
      name,
      category_group: 'Surgery',
      subcategory,
    });
    await any
      .insertInto('write_ins')
      .values([
        writeIn('b1', 0, 'Dr. José Wu'),
        writeIn('b1', 1, 'Hana Sato', 'Cardiology'),
        writeIn('b2', 0, 'jose  wu, MD'),
        writeIn('b3', 0, 'Jose Wu'),
        writeIn('b4', 0, 'JOSE WU'),
        writeIn('b4', 1, 'hana sato', 'Cardiology'),
        writeIn('b5', 0, 'Jose Wu'),
      ])
      .execute();
    const decision = (id: string, nameKey: string, subcategory: string, action: string, nominee: string | null, at: string) => ({
      id,
      project_id: 'p',
      name_key: nameKey,
      category_group: 'Surgery',
      subcategory,
      action,
      nominee_id: nominee,
      decided_by: 'ann',
      decided_at: `2027-03-01T${at}:00.000Z`,
    });
    await any
      .insertInto('write_in_decisions')
      .values([
        decision('d1', 'jose wu', 'Neurosurgery', 'reject', null, '10:30'),
        decision('d2', 'jose wu', 'Neurosurgery', 'merge', 'n-7', '11:00'),
        decision('d3', 'hana sato', 'Cardiology', 'merge', 'n-9', '10:30'),
        decision('d4', 'hana sato', 'Cardiology', 'undo', null, '11:00'),
      ])
      .execute();

    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(error).toBeUndefined();

    const keys = await db.selectFrom('write_ins').select(['ballot_id', 'position', 'name_key']).orderBy('ballot_id').orderBy('position').execute();
    expect(keys.map((row) => row.name_key)).toEqual(['jose wu', 'hana sato', 'jose wu', 'jose wu', 'jose wu', 'hana sato', 'jose wu']);

    const groups = await db
      .selectFrom('write_in_groups')
      .select(['project_id', 'subcategory', 'name_key', 'id', 'writes', 'decided', 'decision_id', 'nominee_id', 'since_decision'])
      .execute();
    groups.sort((a, b) => (`${a.project_id} ${a.name_key}` < `${b.project_id} ${b.name_key}` ? -1 : 1));
    expect(groups.map((g) => ({ ...g, writes: Number(g.writes), decided: Number(g.decided), since_decision: Number(g.since_decision) }))).toEqual([
      {
        project_id: 'other',
        subcategory: 'Neurosurgery',
        name_key: 'jose wu',
        id: writeInGroupId('Surgery', 'Neurosurgery', 'jose wu'),
        writes: 1,
        decided: 0,
        decision_id: null,
        nominee_id: null,
        since_decision: 0,
      },
      {
        project_id: 'p',
        subcategory: 'Cardiology',
        name_key: 'hana sato',
        id: writeInGroupId('Surgery', 'Cardiology', 'hana sato'),
        writes: 2,
        decided: 0,
        decision_id: null,
        nominee_id: null,
        since_decision: 0,
      },
      {
        project_id: 'p',
        subcategory: 'Neurosurgery',
        name_key: 'jose wu',
        id: writeInGroupId('Surgery', 'Neurosurgery', 'jose wu'),
        // The demonstration ballot's is not counted; b4's came after the decision in force.
        writes: 3,
        decided: 1,
        decision_id: 'd2',
        nominee_id: 'n-7',
        since_decision: 1,
      },
    ]);
    const spellings = await db
      .selectFrom('write_in_spellings')
      .select(['name', 'writes'])
      .where('project_id', '=', 'p')
      .where('name_key', '=', 'jose wu')
      .execute();
    expect(spellings.map((s) => [s.name, Number(s.writes)]).sort(([a], [b]) => (a < b ? -1 : 1))).toEqual([
      ['Dr. José Wu', 1],
      ['JOSE WU', 1],
      ['jose  wu, MD', 1],
    ]);
  });
});
