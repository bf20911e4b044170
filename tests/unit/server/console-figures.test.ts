import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannedSqlite } from '../../support/query-plans.ts';
import { migrateToLatest } from '../../../src/server/db/database.ts';
import * as figures from '../../../src/server/console/console-views.repository.ts';
import { respondedCount } from '../../../src/server/people/people.repository.ts';

// The console's figures come from indexes and counters, never from reading a whole table: SQLite's
// plan for each of its queries searches an index by the survey, and scans no table.

const { db, asked, plan, remove } = plannedSqlite('console-figures');

beforeAll(() => migrateToLatest(db));
afterAll(() => remove());

describe("the console's figures", () => {
  test.each([
    { name: 'ballots received', table: 'ballot_days', run: () => figures.ballotsReceived(db, 'p') },
    { name: 'ballots per day', table: 'ballot_days', run: () => figures.ballotsPerDay(db, 'p') },
    { name: 'responded people', table: 'people', run: () => respondedCount(db, 'p') },
    { name: 'messages by status', table: 'mail_messages', run: () => figures.messagesByStatus(db, 'p') },
    { name: 'mail stopped', table: 'mail_recipients', run: () => figures.mailStopped(db, 'p') },
    { name: 'refused by reason', table: 'refused_ballots', run: () => figures.refusedByReason(db, 'p') },
    { name: 'invited and responded people', table: 'roster_groups', run: () => figures.peopleTotals(db, 'p') },
    { name: 'roster columns', table: 'roster_columns', run: () => figures.rosterColumnsOf(db, 'p') },
    { name: 'largest roster groups', table: 'roster_groups', run: () => figures.largestGroups(db, 'p', 'specialty', 50) },
    { name: 'latest signal run', table: 'signal_runs', run: () => figures.latestSignalRun(db, 'p') },
  ])('$name searches an index of $table by the survey', async ({ table, run }) => {
    asked.length = 0;
    await run();
    expect(asked).toHaveLength(1);
    const steps = plan(asked[0]);
    expect(steps.filter((step) => step.startsWith('SCAN '))).toEqual([]);
    expect(
      steps.some((step) => new RegExp(`^SEARCH ${table} USING (COVERING |PRIMARY KEY |)INDEX .*\\(project_id=\\?`).test(step)),
      steps.join('; '),
    ).toBe(true);
  });

  test("ballots are counted in their days' counters, the respondents in the partial index of those marked, and neither in ballots", async () => {
    for (const run of [() => figures.ballotsReceived(db, 'p'), () => figures.ballotsPerDay(db, 'p'), () => respondedCount(db, 'p')]) {
      asked.length = 0;
      await run();
      const steps = plan(asked[0]).join('; ');
      expect(steps).not.toContain('ballots ');
      expect(steps).not.toContain('TEMP B-TREE');
    }
    asked.length = 0;
    await respondedCount(db, 'p');
    expect(plan(asked[0]).join('; ')).toContain('USING COVERING INDEX people_responded');
  });

  test("a roster column's largest groups are read in the index's order, with no sort of the column's groups", async () => {
    asked.length = 0;
    await figures.largestGroups(db, 'p', 'specialty', 50);
    const steps = plan(asked[0]).join('; ');
    expect(steps).toContain('roster_groups_size');
    expect(steps).not.toContain('TEMP B-TREE');
  });

  test("a run's counts per kind are read by the run's key", async () => {
    await db
      .insertInto('signal_runs')
      .values({
        id: 'r1',
        project_id: 'p',
        ran_at: '2027-01-01T00:00:00.000Z',
        actor: 'ana',
        via: 'command line',
        thresholds: '{}',
        ballots_stored: 0,
        ballots_read: 0,
        clusters: 0,
        ballots_named: 0,
      })
      .execute();
    asked.length = 0;
    await figures.latestSignalRun(db, 'p');
    expect(asked).toHaveLength(2);
    expect(plan(asked[1]).join('; ')).toMatch(/^SEARCH signal_run_kinds USING INDEX sqlite_autoindex_signal_run_kinds_1 \(run_id=\?\)/);
  });
});
