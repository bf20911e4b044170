import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import { createDatabase, migrateToLatest } from '../../src/server/db/database.ts';
import { storeBallot } from '../../src/server/intake/ballots.repository.ts';
import { uuidv7 } from '../../src/server/ids.ts';
import { loadNominees } from '../../src/survey/nominees/nominee-file.ts';
import { loadPrepopulation, loadSurvey } from '../../src/survey/config/loader.ts';
import { resolveWriteIn, type Resolution } from '../../src/results/writeins/writeins.ts';
import { PEER_CHECK_BALLOTS, PEER_CHECK_DECISIONS, type HandBallot } from './peer-check-ballots.ts';

/** The test surveys of the API tests, peer-check among them. */
export const FIXTURE_SURVEYS = path.resolve(import.meta.dirname, '../api/fixtures/surveys');

/** The peer-check survey, its nominees and personal links. */
export function peerCheck() {
  const survey = loadSurvey('peer-check', FIXTURE_SURVEYS);
  return { survey, nominees: loadNominees(survey), prepopulation: loadPrepopulation(survey) };
}

/** A fresh, migrated SQLite database in a temp folder; `close` removes it. */
export async function scratchDatabase(): Promise<{ db: Kysely<Database>; file: string; close(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'peervote-results-'));
  const file = path.join(dir, 'peervote.sqlite');
  const { db } = createDatabase({ sqliteFile: file, sqliteSynchronous: 'NORMAL', pgPoolMax: 1 });
  await migrateToLatest(db);
  return {
    db,
    file,
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stores hand-built ballots as the API would, in the order given; returns their ids. */
export async function storeBallots(db: Kysely<Database>, ballots: HandBallot[]): Promise<string[]> {
  const ids: string[] = [];
  for (const b of ballots) {
    const at = new Date(b.at);
    const id = uuidv7(at.getTime());
    ids.push(id);
    await storeBallot(db, {
      id,
      projectId: 'peer-check',
      link: b.link ?? (b.secret ? 'personal' : 'public'),
      personalSecret: b.secret ?? null,
      createdAt: at,
      parts: {
        answers: Object.entries(b.answers ?? {}).map(([field, value]) => ({ field, position: 0, value })),
        nominations: Object.entries(b.votes ?? {}).flatMap(([subcategory, nominees]) =>
          nominees.map((nomineeId, i) => ({ group: 'Medicine', subcategory, slot: i + 1, nomineeId })),
        ),
        writeIns: (b.writeIns ?? []).map(([name, subcategory], position) => ({ position, name, group: 'Medicine', subcategory })),
        reservations: b.faces ? [{ field: 'faces', kind: 'faces', tile: b.faces }] : [],
      },
      uploads: [],
    });
  }
  return ids;
}

/**
 * Stores the peer-check ballots (one per rule of the tally), then `extra` after them, and records
 * the operators' write-in decisions on them; answers the ballots' ids in order.
 */
export async function storePeerCheck(db: Kysely<Database>, extra: HandBallot[] = []): Promise<string[]> {
  const { survey, nominees } = peerCheck();
  const ids = await storeBallots(db, [...PEER_CHECK_BALLOTS, ...extra]);
  for (const [name, category, resolution] of PEER_CHECK_DECISIONS) {
    await resolveWriteIn(db, survey.config, nominees, { name, category, resolution: resolution as Resolution, by: { actor: 'tester' } });
  }
  return ids;
}
