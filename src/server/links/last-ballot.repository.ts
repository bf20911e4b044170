import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { slotName } from '../../survey/ballots/ballot-keys.ts';

/**
 * A personal link's current ballot as the page refills it (`amend: until_close`): its answers by
 * field (a checkbox's several values as a list) and its nominations by slot name, with the ids.
 */
export interface LastBallot {
  sent_at: string;
  answers: Record<string, string | string[]>;
  nominations: Record<string, string>;
}

/** The current ballot of a personal secret, read for the link's holder; undefined before their first. */
export async function lastBallotOf(db: Kysely<Database>, projectId: string, secret: string): Promise<LastBallot | undefined> {
  const ballot = await db
    .selectFrom('ballots')
    .select(['id', 'created_at'])
    .where('project_id', '=', projectId)
    .where('personal_secret', '=', secret)
    .where('replaced_by', 'is', null)
    .executeTakeFirst();
  if (!ballot) return undefined;
  const answers: LastBallot['answers'] = {};
  const rows = await db.selectFrom('answers').select(['field', 'value']).where('ballot_id', '=', ballot.id).orderBy('field').orderBy('position').execute();
  for (const { field, value } of rows) {
    const before = answers[field];
    answers[field] = before === undefined ? value : [...[before].flat(), value];
  }
  const nominations: LastBallot['nominations'] = {};
  const votes = await db.selectFrom('nominations').selectAll().where('ballot_id', '=', ballot.id).execute();
  for (const vote of votes) nominations[slotName(vote.category_group, vote.subcategory, vote.slot)] = vote.nominee_id;
  return { sent_at: ballot.created_at, answers, nominations };
}
