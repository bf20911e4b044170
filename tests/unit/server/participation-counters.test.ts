import { createSecretKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { storeBallot } from '../../../src/server/intake/ballots.repository.ts';
import { replacePeople, respondedCount } from '../../../src/server/people/people.repository.ts';
import { ballotsPerDay, ballotsReceived, largestGroups, peopleTotals, rosterColumnsOf } from '../../../src/server/console/console-views.repository.ts';
import { uuidv7 } from '../../../src/server/ids.ts';
import { scratchDatabase } from '../../support/results-db.ts';

// The console's counters are kept as ballots and people arrive: a day's ballots in the ballot's
// transaction; a person's first current ballot marks them responded and counts in each of their
// roster groups; reading the people again counts them afresh from the ballots. The API tests show
// the same on PostgreSQL through the console's page.

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
const key = createSecretKey(Buffer.alloc(32, 7));
const P = 'counted';

const PEOPLE = {
  'secret-ana': { email: 'ana@example.org', specialty: 'Cardiology', region: 'North' },
  'secret-bo': { email: 'bo@example.org', specialty: 'Cardiology', region: 'South' },
  'secret-cy': { email: 'cy@example.org', specialty: 'Pediatrics' },
  demo: { email: 'demo@example.org', specialty: 'Demo' },
};

const readPeople = () =>
  replacePeople(db, P, [PEOPLE], { digest: 'd', licenceField: 'medical-license', columns: ['specialty', 'region'], key, now: new Date() });

const ballot = (secret: string | null, at: string, replaces = false) =>
  storeBallot(db, {
    id: uuidv7(Date.parse(at)),
    projectId: P,
    link: secret === null ? 'public' : 'personal',
    personalSecret: secret,
    createdAt: new Date(at),
    parts: { answers: [], nominations: [], writeIns: [], reservations: [] },
    uploads: [],
    replaces,
  });

const groups = async (column: string) => Object.fromEntries((await largestGroups(db, P, column, 50)).map((g) => [g.value, [g.invited, g.responded]]));

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
});
afterAll(() => scratch?.close());

describe("the console's participation counters", () => {
  test('reading the people counts everyone and each value of each roster column, and marks those who voted before', async () => {
    await ballot('secret-bo', '2027-03-01T09:00:00.000Z');
    await readPeople();
    expect(await rosterColumnsOf(db, P)).toEqual([
      { name: 'specialty', groups: 2 },
      { name: 'region', groups: 3 },
    ]);
    // The demonstration secret is no one.
    expect(await groups('specialty')).toEqual({ Cardiology: [2, 1], Pediatrics: [1, 0] });
    expect(await groups('region')).toEqual({ North: [1, 0], South: [1, 1], '': [1, 0] });
    expect(await respondedCount(db, P)).toBe(1);
    expect(await peopleTotals(db, P)).toEqual({ invited: 3, responded: 1 });
  });

  test("a person's first ballot counts in their groups in its own transaction; a ballot that replaces it, a public one or a second try do not", async () => {
    await ballot('secret-ana', '2027-03-01T10:00:00.000Z');
    expect(await groups('specialty')).toEqual({ Cardiology: [2, 2], Pediatrics: [1, 0] });
    await ballot('secret-ana', '2027-03-02T10:00:00.000Z', true);
    await expect(ballot('secret-ana', '2027-03-02T11:00:00.000Z')).rejects.toThrow('already been received');
    await ballot(null, '2027-03-02T12:00:00.000Z');
    await ballot('secret-nobody', '2027-03-02T13:00:00.000Z');
    expect(await groups('specialty')).toEqual({ Cardiology: [2, 2], Pediatrics: [1, 0] });
    expect(await groups('region')).toEqual({ North: [1, 1], South: [1, 1], '': [1, 0] });
    expect(await respondedCount(db, P)).toBe(2);
    expect(await peopleTotals(db, P)).toEqual({ invited: 3, responded: 2 });
  });

  test('ballots are counted by their day, the one refused left out, whatever rows a day is spread over', async () => {
    expect(await ballotsReceived(db, P)).toBe(5);
    expect(await ballotsPerDay(db, P)).toEqual([
      { day: '2027-03-01', ballots: 2 },
      { day: '2027-03-02', ballots: 3 },
    ]);
  });

  test('reading the people again counts them afresh from the current ballots, to the same figures', async () => {
    const before = [await groups('specialty'), await groups('region'), await respondedCount(db, P), await peopleTotals(db, P)];
    await db.deleteFrom('roster_groups').execute();
    await db.updateTable('people').set({ responded: 0 }).execute();
    await readPeople();
    expect([await groups('specialty'), await groups('region'), await respondedCount(db, P), await peopleTotals(db, P)]).toEqual(before);
  });
});
