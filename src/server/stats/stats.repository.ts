import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** Participation in one survey: ballots in total and per day (UTC), nominations per sub-category, write-ins. Demo ballots are left out. */
export interface Participation {
  ballots: number;
  perDay: Array<{ day: string; ballots: number }>;
  nominations: Array<{ group: string; subcategory: string; nominations: number }>;
  writeIns: number;
}

/** Counts participation in one survey; never a nominee's count. */
export async function participation(db: Kysely<Database>, projectId: string): Promise<Participation> {
  const counted = db.selectFrom('ballots').where('project_id', '=', projectId).where('link', '!=', 'demo');
  const day = sql<string>`substr(created_at, 1, 10)`;
  const perDay = await counted
    .select([day.as('day'), (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy(day)
    .orderBy(day)
    .execute();
  const nominations = await db
    .selectFrom('nominations')
    .innerJoin('ballots', 'ballots.id', 'nominations.ballot_id')
    .where('ballots.project_id', '=', projectId)
    .where('ballots.link', '!=', 'demo')
    .select(['nominations.category_group', 'nominations.subcategory', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy(['nominations.category_group', 'nominations.subcategory'])
    .execute();
  const writeIns = await db
    .selectFrom('write_ins')
    .innerJoin('ballots', 'ballots.id', 'write_ins.ballot_id')
    .where('ballots.project_id', '=', projectId)
    .where('ballots.link', '!=', 'demo')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  const days = perDay.map((row) => ({ day: row.day, ballots: Number(row.n) }));
  return {
    ballots: days.reduce((sum, row) => sum + row.ballots, 0),
    perDay: days,
    nominations: nominations.map((row) => ({ group: row.category_group, subcategory: row.subcategory, nominations: Number(row.n) })),
    writeIns: Number(writeIns?.n ?? 0),
  };
}

/** Ballots per answer to one field (the workplace), as written; demo ballots left out, one count per ballot. */
export async function ballotsPerAnswer(db: Kysely<Database>, projectId: string, field: string): Promise<Array<{ value: string; ballots: number }>> {
  const rows = await db
    .selectFrom('answers')
    .innerJoin('ballots', 'ballots.id', 'answers.ballot_id')
    .where('ballots.project_id', '=', projectId)
    .where('ballots.link', '!=', 'demo')
    .where('answers.field', '=', field)
    .where('answers.position', '=', 0)
    .select(['answers.value', (eb) => eb.fn.countAll<string | number>().as('n')])
    .groupBy('answers.value')
    .execute();
  return rows.map((row) => ({ value: row.value, ballots: Number(row.n) }));
}

/** Ballots of one survey that gave no answer to a field. */
export async function ballotsWithout(db: Kysely<Database>, projectId: string, field: string): Promise<number> {
  const row = await db
    .selectFrom('ballots')
    .where('project_id', '=', projectId)
    .where('link', '!=', 'demo')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('answers').select('answers.ballot_id').whereRef('answers.ballot_id', '=', 'ballots.id').where('answers.field', '=', field))),
    )
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
