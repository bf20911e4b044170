import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannedSqlite } from '../../support/query-plans.ts';
import { migrateToLatest } from '../../../src/server/db/database.ts';
import { refusedCounts, refusedPage } from '../../../src/server/intake/refused-ballots.repository.ts';

// The console's page of refused ballots reads one page, however many a survey holds: SQLite's
// plan for each of its queries searches an index by the survey, scans no table and sorts nothing;
// and its keyset pages, both ways, hold every refused ballot once, in order.

const { db, asked, plan, remove } = plannedSqlite('refused-page');

/** A refused ballot's id for number `n`: ids sort as the numbers do, as UUIDv7s sort by time. */
const idOf = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const row = (projectId: string, n: number, admitted = false) => ({
  id: idOf(n),
  project_id: projectId,
  received_at: new Date(Date.UTC(2027, 1, 1) + n * 1000).toISOString(),
  status: 410,
  reason: 'expired',
  problems: '[]',
  secret: null,
  fields: '[]',
  files: '[]',
  fingerprint: `${projectId}-${n}`,
  admitted_at: admitted ? '2027-03-01T00:00:00.000Z' : null,
  admitted_by: admitted ? 'ann' : null,
  admit_reason: admitted ? 'late by post' : null,
  ballot_id: admitted ? `b-${n}` : null,
});

beforeAll(async () => {
  await migrateToLatest(db);
  // Two surveys' refusals interleaved, so that a page of one that read the other's would show.
  await db
    .insertInto('refused_ballots')
    .values(Array.from({ length: 25 }, (_, n) => row(n % 2 ? 'p' : 'q', n, n % 5 === 1)))
    .execute();
});
afterAll(() => remove());

describe("the refused ballots' page", () => {
  test.each([
    { name: 'the newest page', from: {} },
    { name: 'an older page', from: { before: idOf(15) } },
    { name: 'a newer page', from: { after: idOf(3) } },
  ])('$name searches the index on (project_id, id), sorting nothing', async ({ from }) => {
    asked.length = 0;
    await refusedPage(db, 'p', from, 5);
    expect(asked).toHaveLength(1);
    const steps = plan(asked[0]);
    expect(steps, steps.join('; ')).toEqual([
      expect.stringMatching(
        /^SEARCH refused_ballots USING INDEX refused_ballots_page \(project_id=\? AND id[<>]\?\)$|^SEARCH refused_ballots USING INDEX refused_ballots_page \(project_id=\?\)$/,
      ),
    ]);
  });

  test('its counts are counted in indexes alone', async () => {
    asked.length = 0;
    expect(await refusedCounts(db, 'p')).toEqual({ refused: 12, admitted: 3 });
    expect(asked).toHaveLength(2);
    for (const query of asked) {
      const steps = plan(query);
      expect(steps, steps.join('; ')).toEqual([
        expect.stringMatching(
          /^SEARCH refused_ballots USING COVERING INDEX refused_ballots_(page \(project_id=\?\)|admitted \(project_id=\? AND admitted_at>\?\))$/,
        ),
      ]);
    }
  });

  test('pages both ways hold every refused ballot of the survey once, newest first', async () => {
    const mine = Array.from({ length: 25 }, (_, n) => n)
      .filter((n) => n % 2)
      .map(idOf)
      .reverse();
    const older: string[][] = [];
    let before: string | undefined;
    for (;;) {
      const { rows, more } = await refusedPage(db, 'p', before ? { before } : {}, 5);
      older.push(rows.map((r) => r.id));
      if (!more) break;
      before = rows.at(-1)!.id;
    }
    expect(older.map((page) => page.length)).toEqual([5, 5, 2]);
    expect(older.flat()).toEqual(mine);

    const newer: string[][] = [];
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows, more } = await refusedPage(db, 'p', { after }, 5);
      newer.push(rows.map((r) => r.id));
      if (!more) break;
      after = rows[0].id;
    }
    expect(newer.map((page) => page.length)).toEqual([5, 5, 2]);
    expect(newer.toReversed().flat()).toEqual(mine);
  });
});
