import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { TileClaimRow } from '../../server/db/tables/tile-claims.table.ts';
import type { ReservationDecisionRow } from '../../server/db/tables/reservation-decisions.table.ts';

/** A survey's tile claims: which ballot holds each tile now, and until when. */
export async function tileClaims(db: Kysely<Database>, projectId: string): Promise<TileClaimRow[]> {
  return db.selectFrom('tile_claims').selectAll().where('project_id', '=', projectId).execute();
}

/** Every operator's decision on a survey's tiles (confirmed, released), oldest first. */
export async function reservationDecisions(db: Kysely<Database>, projectId: string): Promise<ReservationDecisionRow[]> {
  return db.selectFrom('reservation_decisions').selectAll().where('project_id', '=', projectId).orderBy('decided_at').orderBy('id').execute();
}

/** The most write-ins any ballot of the survey has (0 when none has any). */
export async function mostWriteIns(db: Kysely<Database>, projectId: string): Promise<number> {
  // From the write-ins (a few), each checked for its survey: a join would walk the survey's ballots instead.
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('write_ins')
        .where(({ exists, selectFrom }) =>
          exists(selectFrom('ballots').select('ballots.id').whereRef('ballots.id', '=', 'write_ins.ballot_id').where('ballots.project_id', '=', projectId)),
        )
        .groupBy('write_ins.ballot_id')
        .select((e) => e.fn.countAll<string | number>().as('n'))
        .as('per_ballot'),
    )
    .select((eb) => eb.fn.max('per_ballot.n').as('most'))
    .executeTakeFirst();
  return Number(row?.most ?? 0);
}
