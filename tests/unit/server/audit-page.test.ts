import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { plannedSqlite } from '../../support/query-plans.ts';
import { migrateToLatest } from '../../../src/server/db/database.ts';
import { appendAudit, auditChoices, auditPage } from '../../../src/server/db/audit.repository.ts';

// The console's audit page reads a trail a page at a time: one query a page, which searches the
// index on (project_id, seq) from its place and sorts nothing, however long the trail.

const { db, asked, plan, remove } = plannedSqlite('audit-page');

beforeAll(async () => {
  await migrateToLatest(db);
  for (let n = 1; n <= 12; n++) await appendAudit(db, { projectId: 'p', actor: n % 2 ? 'ann' : 'bob', action: n % 3 ? 'admit' : 'exclude', subject: `b-${n}` });
  await appendAudit(db, { projectId: 'other', actor: 'cy', action: 'purge' });
});
afterAll(() => remove());

const numbers = (page: Awaited<ReturnType<typeof auditPage>>) => page.entries.map((entry) => entry.seq);

describe('a page of the audit trail', () => {
  test.each([
    { name: 'the newest page', from: {}, filter: {}, seqs: [12, 11, 10, 9, 8], more: true },
    { name: 'the page before an entry', from: { before: 8 }, filter: {}, seqs: [7, 6, 5, 4, 3], more: true },
    { name: 'the page after an entry', from: { after: 3 }, filter: {}, seqs: [8, 7, 6, 5, 4], more: true },
    { name: 'the last page', from: { before: 3 }, filter: {}, seqs: [2, 1], more: false },
    { name: 'the newest page of a filter', from: {}, filter: { actor: 'ann', action: 'admit' }, seqs: [11, 7, 5, 1], more: false },
    { name: 'a page after an entry of a filter', from: { after: 1 }, filter: { action: 'exclude' }, seqs: [12, 9, 6, 3], more: false },
  ])('$name is one query on the index by the survey and the number, with no sort', async ({ from, filter, seqs, more }) => {
    asked.length = 0;
    const page = await auditPage(db, 'p', filter, from, 5);
    expect([numbers(page), page.more]).toEqual([seqs, more]);
    expect(asked).toHaveLength(1);
    const steps = plan(asked[0]);
    expect(steps, steps.join('; ')).toHaveLength(1);
    expect(steps[0]).toMatch(/^SEARCH audit_log USING INDEX audit_log_seq \(project_id=\?/);
  });

  test("the filters' choices are each actor and action of the survey once, from the survey's entries alone", async () => {
    asked.length = 0;
    expect(await auditChoices(db, 'p')).toEqual({ actors: ['ann', 'bob'], actions: ['admit', 'exclude'] });
    for (const query of asked) expect(plan(query).filter((step) => step.startsWith('SCAN '))).toEqual([]);
  });
});
