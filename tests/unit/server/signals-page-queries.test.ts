import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannedSqlite } from '../../support/query-plans.ts';
import { migrateToLatest } from '../../../src/server/db/database.ts';
import { ballotFacts, keptBallots, keptClusters } from '../../../src/results/signals/signal-runs.repository.ts';
import { lastRestoreOf } from '../../../src/results/tally/tally.repository.ts';

// The signals page reads a look of thousands of clusters over a million ballots a page at a time:
// SQLite's plan for each of its queries searches a key or an index, reads the rows in its order
// (no sort of the survey's rows), and scans no table.

const { db, asked, plan, remove } = plannedSqlite('signals-page');

beforeAll(() => migrateToLatest(db));
afterAll(() => remove());

/** The plan of each query a call asks, joined; the queries it asked. */
async function plans(run: () => Promise<unknown>): Promise<string[]> {
  asked.length = 0;
  await run();
  return asked.map((query) => plan(query).join('; '));
}

describe("the signals page's queries", () => {
  test.each([
    { name: 'the first clusters', run: () => keptClusters(db, 'r', {}, 20) },
    { name: 'the clusters after a place', run: () => keptClusters(db, 'r', { after: 19 }, 20) },
    { name: 'the clusters before a place', run: () => keptClusters(db, 'r', { before: 40 }, 20) },
    { name: 'one cluster', run: () => keptClusters(db, 'r', { only: 3 }, 1) },
  ])('$name: a search of the clusters’ key, in its order', async ({ run }) => {
    const [steps] = await plans(run);
    expect(steps).toMatch(/^SEARCH signal_run_clusters USING (INDEX|PRIMARY KEY|COVERING INDEX) sqlite_autoindex_signal_run_clusters_1 \(run_id=\?/);
    expect(steps).not.toContain('TEMP B-TREE');
  });

  test.each([
    { name: "a cluster's first ballots", run: () => keptBallots(db, 'r', 0, {}, 50) },
    { name: "a cluster's ballots after one", run: () => keptBallots(db, 'r', 0, { after: 'b' }, 50) },
    { name: "a cluster's ballots before one", run: () => keptBallots(db, 'r', 0, { before: 'b' }, 50) },
  ])('$name: a search of the ballots’ key, in its order', async ({ run }) => {
    const [steps] = await plans(run);
    expect(steps).toMatch(/^SEARCH signal_run_ballots USING COVERING INDEX sqlite_autoindex_signal_run_ballots_1 \(run_id=\? AND position=\?/);
    expect(steps).not.toContain('TEMP B-TREE');
  });

  test("the listed ballots' facts are read by their keys, never the survey's every ballot", async () => {
    const steps = await plans(() => ballotFacts(db, 'p', ['a', 'b', 'c'], ['name-first', 'name-last']));
    expect(steps).toHaveLength(3);
    for (const one of steps) expect(one).not.toMatch(/\bSCAN /);
    expect(steps.find((one) => one.includes(' ballots '))).toMatch(
      /^SEARCH ballots USING (INDEX sqlite_autoindex_ballots_1|PRIMARY KEY|COVERING INDEX sqlite_autoindex_ballots_1) \(id=\?\)/,
    );
    expect(steps.find((one) => one.includes('answers'))).toMatch(/^SEARCH answers USING (PRIMARY KEY|(COVERING )?INDEX \S+) \(ballot_id=\? AND field=\?\)/);
  });

  test('who restored a ballot is found by the trail’s index of what an entry was done to', async () => {
    const [steps] = await plans(() => lastRestoreOf(db, 'p', 'a'));
    expect(steps).toMatch(/^SEARCH audit_log USING INDEX audit_log_subject \(project_id=\? AND subject=\?\)/);
    expect(steps).not.toContain('TEMP B-TREE');
  });
});
