import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannedSqlite } from '../../support/query-plans.ts';
import { migrateToLatest } from '../../../src/server/db/database.ts';
import { storeBallot } from '../../../src/server/intake/ballots.repository.ts';
import { markWriteInGroups, writeInGroupId } from '../../../src/server/intake/write-in-counts.repository.ts';
import { nomineeCounts, queueGroups, queueRows, queueTotals } from '../../../src/results/writeins/writeins-queue.ts';
import { nameKey } from '../../../src/survey/nominees/name-key.ts';
import type { SurveyConfig } from '../../../src/survey/config/config.struct.ts';

// The write-ins queue reads one page, however many write-ins a survey holds: the API counts each
// ballot's write-ins by group and spelling as it stores it, and SQLite's plan for each of the
// page's queries searches an index, scans no table and sorts nothing; its keyset pages, both
// ways, hold every group once, those waiting first, then the most written.

const { db, asked, plan, remove } = plannedSqlite('writeins-queue');
const config = { project_id: 'p', layout: [] } as unknown as SurveyConfig;

/** A ballot's id for number `n`: ids sort as the numbers do, as UUIDv7s sort by time. */
const idOf = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const SUBS = [
  ['Surgery', 'Neurosurgery'],
  ['Medicine', 'Cardiology'],
] as const;
/** Group g's spellings: g + 1 write-ins each, in three spellings that fold the same. */
const spelling = (g: number, k: number) => [`Dr. Writein Number${g}`, `writein  number${g}`, `WRITEIN NUMBER${g}, MD`][k % 3];

let ballot = 0;
async function store(projectId: string, writeIns: Array<{ name: string; group: string; subcategory: string }>, link: 'public' | 'demo' = 'public') {
  ballot++;
  await storeBallot(db, {
    id: idOf(ballot),
    projectId,
    link,
    personalSecret: null,
    createdAt: new Date(Date.UTC(2027, 1, 1) + ballot * 1000),
    parts: { answers: [], nominations: [], writeIns: writeIns.map((w, position) => ({ position, ...w })), reservations: [] },
    uploads: [],
  });
}

beforeAll(async () => {
  await migrateToLatest(db);
  // 24 groups in survey p (12 names in two sub-categories, group g written g % 5 + 1 times),
  // interleaved with survey q's, which a page of p that read them would show.
  for (let g = 0; g < 12; g++)
    for (const [group, subcategory] of SUBS)
      for (let k = 0; k <= g % 5; k++) {
        await store('p', [{ name: spelling(g, k), group, subcategory }]);
        await store('q', [{ name: spelling(g, k), group, subcategory }]);
      }
  // A ballot with one name twice in one sub-category, and a demonstration ballot, counted by neither.
  await store('p', [
    { name: 'Dr. Writein Number0', group: 'Surgery', subcategory: 'Neurosurgery' },
    { name: 'writein number0', group: 'Surgery', subcategory: 'Neurosurgery' },
  ]);
  await store('p', [{ name: 'Dr. Writein Number1', group: 'Surgery', subcategory: 'Neurosurgery' }], 'demo');
  // Three groups decided: two attached to a nominee, one rejected.
  const decided = [
    [0, 'merge', 'n-1'],
    [3, 'merge', 'n-1'],
    [7, 'reject', null],
  ] as const;
  const decisions = decided.map(([g, action, nominee], n) => ({
    id: `d-${n}`,
    project_id: 'p',
    name_key: nameKey(spelling(g, 0)),
    category_group: 'Surgery',
    subcategory: 'Neurosurgery',
    action,
    nominee_id: nominee,
    nominee_name: null,
    nominee_specialty: null,
    nominee_practice: null,
    nominee_city: null,
    note: null,
    decided_by: 'ann',
    decided_at: new Date(Date.UTC(2027, 1, 1) + ballot * 1000 + 500).toISOString(),
  }));
  await db.insertInto('write_in_decisions').values(decisions).execute();
  await markWriteInGroups(db, decisions);
  // A write-in that arrives after its group's decision is counted by it, and says so.
  await store('p', [{ name: 'WRITEIN NUMBER3', group: 'Surgery', subcategory: 'Neurosurgery' }]);
});
afterAll(() => remove());

describe("a group's id", () => {
  const id = (name: string, subcategory = 'Neurosurgery') => writeInGroupId('Surgery', subcategory, nameKey(name));

  test.each([
    ['Dr. Hannah Weiss', 'hannah  weiss'],
    ['Dr. Hannah Weiss', 'HANNAH WEISS, MD'],
    ['Hannah Weiß', 'Hannah Weiß'],
    ['José Álvarez-Ruiz', 'jose alvarez ruiz'],
  ])('“%s” and “%s” are one group', (a, b) => {
    expect(id(a)).toBe(id(b));
    expect(id(a)).toMatch(/^[0-9a-f]{16}$/);
  });

  test('another name, or the same name in another sub-category, is another group', () => {
    expect(id('Hannah Weiss')).not.toBe(id('Hanna Weiss'));
    expect(id('Hannah Weiss')).not.toBe(id('Hannah Weiss', 'Cardiology'));
  });
});

describe('the counts the API keeps', () => {
  test('are the write-ins recounted, by folded name, demonstration ballots left out', async () => {
    const recount = await db
      .selectFrom('write_ins')
      .innerJoin('ballots', 'ballots.id', 'write_ins.ballot_id')
      .where('ballots.project_id', '=', 'p')
      .where('ballots.link', '!=', 'demo')
      .select(['write_ins.name_key', 'write_ins.category_group', 'write_ins.subcategory', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['write_ins.name_key', 'write_ins.category_group', 'write_ins.subcategory'])
      .orderBy('write_ins.name_key')
      .orderBy('write_ins.category_group')
      .execute();
    const kept = await db
      .selectFrom('write_in_groups')
      .where('project_id', '=', 'p')
      .select(['name_key', 'category_group', 'subcategory', 'writes as n'])
      .orderBy('name_key')
      .orderBy('category_group')
      .execute();
    expect(kept).toEqual(recount);
    expect(kept.find((row) => row.name_key === 'writein number0' && row.category_group === 'Surgery')?.n).toBe(3);
    expect(await queueTotals(db, 'p')).toEqual({ groups: 24, waitingGroups: 21, writeIns: 69, waitingWriteIns: 58 });
  });

  test('a group shows its spellings, its decision, its newest ballots, and those counted by themselves since', async () => {
    const { rows } = await queueRows(db, 'p', { at: writeInGroupId('Surgery', 'Neurosurgery', 'writein number3') }, 1);
    const [group] = await queueGroups(db, config, rows, false);
    expect(group).toMatchObject({
      name: 'Dr. Writein Number3',
      count: 5,
      spellings: [
        { name: 'Dr. Writein Number3', count: 2 },
        { name: 'WRITEIN NUMBER3', count: 1 },
        { name: 'WRITEIN NUMBER3, MD', count: 1 },
        { name: 'writein  number3', count: 1 },
      ],
      decision: { id: 'd-1', action: 'merge', nominee_id: 'n-1', decided_by: 'ann' },
      afterDecision: 1,
    });
    expect(group.ballots.map((b) => [b.spelling, b.byItself])).toEqual([
      ['WRITEIN NUMBER3', true],
      ['Dr. Writein Number3', false],
      ['WRITEIN NUMBER3, MD', false],
      ['writein  number3', false],
      ['Dr. Writein Number3', false],
    ]);
  });
});

describe("the queue's queries", () => {
  const place = (g: number) => writeInGroupId('Surgery', 'Neurosurgery', nameKey(spelling(g, 0)));
  test.each([
    { name: 'the first page', from: {} },
    { name: 'a later page', from: { after: place(9) } },
    { name: 'an earlier page', from: { before: place(9) } },
    { name: 'the page at a group', from: { at: place(9) } },
  ])('$name searches the queue index, sorting nothing', async ({ from }) => {
    asked.length = 0;
    await queueRows(db, 'p', from, 5);
    expect(asked.length).toBeGreaterThan(0);
    for (const query of asked) {
      const steps = plan(query);
      expect(steps, `${query.sql}: ${steps.join('; ')}`).toEqual([
        expect.stringMatching(/^SEARCH write_in_groups USING (COVERING )?INDEX write_in_groups_(queue \(project_id=\?\)|id \(project_id=\? AND id=\?\))$/),
      ]);
    }
  });

  test("the totals, a page's groups and a nominee's counts search indexes, sorting nothing", async () => {
    asked.length = 0;
    await queueTotals(db, 'p');
    const { rows } = await queueRows(db, 'p', {}, 5);
    await queueGroups(db, config, rows, false);
    await nomineeCounts(db, 'p', { group: 'Surgery', subcategory: 'Neurosurgery' }, ['n-1', 'n-2']);
    const plans = asked.map((query) => plan(query).join('; '));
    // A group's ten newest ballots are read as a subquery of the page's one query, and scanned as such (SCAN group0): no table is.
    for (const steps of plans) expect(steps).not.toMatch(/SCAN (?!group\d+(;|$))|TEMP B-TREE/);
    expect(plans.join('\n')).toMatch(/SEARCH write_ins USING (COVERING )?INDEX write_ins_group \(name_key=\? AND category_group=\? AND subcategory=\?\)/);
    expect(plans.join('\n')).toMatch(/SEARCH write_in_spellings USING INDEX sqlite_autoindex_write_in_spellings_1 \(project_id=\? AND name_key=\?\)/);
    expect(plans.join('\n')).toMatch(/SEARCH write_in_groups USING INDEX write_in_groups_nominee/);
  });

  test('pages both ways hold every group of the survey once: waiting first, then the most written', async () => {
    const all = await db.selectFrom('write_in_groups').selectAll().where('project_id', '=', 'p').execute();
    const expected = all
      .sort(
        (a, b) =>
          a.decided - b.decided ||
          b.writes - a.writes ||
          (a.name_key < b.name_key ? -1 : a.name_key > b.name_key ? 1 : 0) ||
          (a.category_group < b.category_group ? -1 : 1),
      )
      .map((row) => row.id);
    expect(all.filter((row) => row.decided).length).toBe(3);

    const forward: string[][] = [];
    let after: string | undefined;
    for (;;) {
      const { rows, later, offset } = await queueRows(db, 'p', after ? { after } : {}, 5);
      expect(offset).toBe(forward.flat().length);
      forward.push(rows.map((row) => row.id));
      if (!later) break;
      after = rows.at(-1)!.id;
    }
    expect(forward.map((page) => page.length)).toEqual([5, 5, 5, 5, 4]);
    expect(forward.flat()).toEqual(expected);

    const backward: string[][] = [];
    let before = expected.at(-1)!;
    backward.push([before]);
    for (;;) {
      const { rows, earlier } = await queueRows(db, 'p', { before }, 5);
      backward.unshift(rows.map((row) => row.id));
      if (!earlier) break;
      before = rows[0].id;
    }
    expect(backward.flat()).toEqual(expected);
  });

  test("a nominee's count holds the write-ins of the groups attached to it in that sub-category, not a rejected one's", async () => {
    const counts = await nomineeCounts(db, 'p', { group: 'Surgery', subcategory: 'Neurosurgery' }, ['n-1', 'n-2']);
    // "writein number0" (3, one ballot writing it twice) and "writein number3" (4 and 1 since).
    expect(Object.fromEntries(counts)).toEqual({ 'n-1': 8, 'n-2': 0 });
  });
});
