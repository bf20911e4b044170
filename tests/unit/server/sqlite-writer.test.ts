import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import type { NewMailMessage } from '../../../src/server/db/tables/mail-messages.table.ts';
import { sqliteWriter } from '../../../src/server/db/sqlite-writer.ts';
import { sendRecords } from '../../../src/results/delivery/delivery.repository.ts';
import { scratchDatabase } from '../../support/results-db.ts';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
});
afterAll(() => scratch?.close());

const row = (n: number): NewMailMessage => ({
  message_id: `<m${n}@peer.example>`,
  project_id: 'peer-check',
  kind: 'invitation',
  email_key: `key-${n}`,
  recipient: `person${n}@peer.example`,
  status: 'sending',
  attempts: 1,
  created_at: '2026-11-25T10:00:00.000Z',
  sent_at: null,
  detail: null,
  payload: null,
});

const statuses = async () =>
  Object.fromEntries(
    (await db.selectFrom('mail_messages').select(['message_id', 'status']).orderBy('message_id').execute()).map((r) => [r.message_id, r.status]),
  );

describe('the SQLite writer', () => {
  test('commits each list of statements as one transaction, in the order handed in, seen at once by the caller’s connection', async () => {
    const writer = sqliteWriter({ file: scratch.file, synchronous: 'NORMAL' });
    try {
      const first = writer.write(sendRecords(db, [], [row(1), row(2)]));
      const second = writer.write(
        sendRecords(db, [{ messageId: '<m1@peer.example>', status: 'sent', detail: '250 OK', sentAt: '2026-11-25T10:00:01.000Z' }], [row(3)]),
      );
      await Promise.all([first, second]);
      expect(await statuses()).toEqual({ '<m1@peer.example>': 'sent', '<m2@peer.example>': 'sending', '<m3@peer.example>': 'sending' });
    } finally {
      await writer.close();
    }
  });

  test('a statement that fails rolls its whole transaction back and rejects with the database’s reason; the next goes on', async () => {
    const writer = sqliteWriter({ file: scratch.file, synchronous: 'NORMAL' });
    try {
      const before = await statuses();
      // The update would go through; the insert repeats a Message-ID, so neither is kept.
      const refused = writer.write(sendRecords(db, [{ messageId: '<m2@peer.example>', status: 'failed', detail: '421 busy' }], [row(3)]));
      await expect(refused).rejects.toThrow(/UNIQUE constraint failed: mail_messages\.message_id/);
      expect(await statuses()).toEqual(before);
      await writer.write(sendRecords(db, [{ messageId: '<m2@peer.example>', status: 'forgotten' }], []));
      expect(Object.keys(await statuses())).toEqual(['<m1@peer.example>', '<m3@peer.example>']);
    } finally {
      await writer.close();
    }
  });

  test('once closed, a write is refused at once and writes nothing', async () => {
    const writer = sqliteWriter({ file: scratch.file, synchronous: 'NORMAL' });
    await writer.close();
    await expect(writer.write(sendRecords(db, [], [row(9)]))).rejects.toThrow('The database writer is closed.');
    expect(Object.keys(await statuses())).not.toContain('<m9@peer.example>');
  });

  test('a file it cannot open is refused as the writer is made, with the reason', () => {
    // A folder where a file is: the writer cannot make it.
    expect(() => sqliteWriter({ file: `${scratch.file}/peervote.sqlite`, synchronous: 'NORMAL' })).toThrow(/EEXIST: file already exists, mkdir/);
  });
});
