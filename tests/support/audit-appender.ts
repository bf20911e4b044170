// One process appending to a survey's audit trail at the same time as others (tests/api/audit-trail.test.ts):
//
//   node tests/support/audit-appender.ts PROJECT_ID COUNT ACTOR      (DATABASE_URL, else SQLITE_FILE)
//
// It opens the database, says `ready`, waits for a line on standard input, then makes COUNT
// appends at once, each in a transaction of its own (on PostgreSQL, up to four at a time).
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createDatabase } from '../../src/server/db/database.ts';
import { appendAudit } from '../../src/server/db/audit.repository.ts';

const [projectId, count, actor] = process.argv.slice(2);
const { db } = createDatabase({
  databaseUrl: process.env.DATABASE_URL || undefined,
  sqliteFile: process.env.SQLITE_FILE ?? '',
  sqliteSynchronous: 'NORMAL',
  pgPoolMax: 4,
});
// The connection is open before the start, so that the processes' appends meet.
await db.selectFrom('audit_log').select('id').limit(1).execute();
process.stdout.write('ready\n');
await once(createInterface({ input: process.stdin }), 'line');
await Promise.all(Array.from({ length: Number(count) }, (_, i) => appendAudit(db, { projectId, actor, action: 'race', subject: String(i + 1) })));
await db.destroy();
