import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BallotLink, NewUpload } from '../db/ballots.table.ts';
import type { BallotParts } from '../../survey/ballot-parts.ts';
import type { BallotReceipt, ReservationOutcome } from '../../survey/api-replies.ts';
import { EXPERT_HOLD_MS } from '../../survey/tiles.ts';
import { claimTile } from '../reservations/tile-claims.repository.ts';
import { completeIdempotencyKey } from './idempotency.repository.ts';
import { newReceiptCode } from '../tokens.ts';
import type { NewMailMessage } from '../db/mail-messages.table.ts';

/** Where a fault may be injected between the writes of one ballot (tests only). */
export type Checkpoint = 'ballot' | 'answers' | 'nominations' | 'write-ins' | 'reservations' | 'uploads' | 'idempotency';

/** Everything one ballot stores, already checked. */
export interface BallotRecord {
  id: string;
  projectId: string;
  link: BallotLink;
  personalSecret: string | null;
  createdAt: Date;
  parts: Omit<BallotParts, 'files'>;
  uploads: Array<Omit<NewUpload, 'ballot_id' | 'created_at'>>;
  idempotencyKey?: string;
  /** The voter's receipt code; a new random one when not given. */
  receipt?: string;
  /** Salted hashes of the client's address and user agent, for fraud signals (src/server/intake/signals-salt.ts). */
  clientHash?: string;
  agentHash?: string;
  /** A receipt by mail, queued in the ballot's own transaction so that it is stored with the ballot or not at all. */
  receiptMail?: Omit<NewMailMessage, 'status' | 'kind' | 'project_id' | 'attempts' | 'sent_at' | 'detail'>;
}

/** A second ballot for a personal secret that already has one. */
export class AlreadySubmittedError extends Error {
  constructor() {
    super('A ballot has already been received for this personal link.');
    this.name = 'AlreadySubmittedError';
  }
}

/**
 * Stores a ballot and everything in it in one transaction and returns its receipt: the ballot,
 * answers, nominations, write-ins, reservations (claiming tiles), uploads and the idempotency
 * key's answer. Any failure rolls all of it back. `checkpoint` runs between the writes.
 */
export async function storeBallot(db: Kysely<Database>, ballot: BallotRecord, checkpoint: (point: Checkpoint) => void = () => {}): Promise<BallotReceipt> {
  const createdAt = ballot.createdAt.toISOString();
  const ballotId = ballot.id;
  const code = ballot.receipt ?? newReceiptCode();
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('ballots')
      .values({
        id: ballotId,
        project_id: ballot.projectId,
        link: ballot.link,
        personal_secret: ballot.personalSecret,
        created_at: createdAt,
        receipt: code,
        client_hash: ballot.clientHash ?? null,
        agent_hash: ballot.agentHash ?? null,
      })
      .onConflict((conflict) => conflict.columns(['project_id', 'personal_secret']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new AlreadySubmittedError();
    checkpoint('ballot');

    const { answers, nominations, writeIns, reservations } = ballot.parts;
    if (answers.length)
      await trx
        .insertInto('answers')
        .values(answers.map((a) => ({ ballot_id: ballotId, ...a })))
        .execute();
    checkpoint('answers');
    if (nominations.length) {
      await trx
        .insertInto('nominations')
        .values(nominations.map((n) => ({ ballot_id: ballotId, category_group: n.group, subcategory: n.subcategory, slot: n.slot, nominee_id: n.nomineeId })))
        .execute();
    }
    checkpoint('nominations');
    if (writeIns.length) {
      await trx
        .insertInto('write_ins')
        .values(writeIns.map((w) => ({ ballot_id: ballotId, position: w.position, name: w.name, category_group: w.group, subcategory: w.subcategory })))
        .execute();
    }
    checkpoint('write-ins');

    const outcomes: ReservationOutcome[] = [];
    for (const reservation of reservations) {
      let outcome: ReservationOutcome;
      if (reservation.tile !== undefined) {
        const won = await claimTile(trx, {
          projectId: ballot.projectId,
          kind: reservation.kind,
          tile: reservation.tile,
          ballotId,
          now: ballot.createdAt,
          holdMs: reservation.kind === 'asktheexpert' ? EXPERT_HOLD_MS : undefined,
        });
        outcome = { field: reservation.field, tile: reservation.tile, status: won ? 'reserved' : 'lost' };
      } else {
        outcome = { field: reservation.field, tile: reservation.custom ?? '', status: 'custom' };
      }
      outcomes.push(outcome);
      await trx
        .insertInto('reservations')
        .values({
          ballot_id: ballotId,
          field: reservation.field,
          kind: reservation.kind,
          tile: reservation.tile ?? null,
          custom_text: reservation.custom ?? null,
          status: outcome.status,
        })
        .execute();
    }
    checkpoint('reservations');
    if (ballot.uploads.length)
      await trx
        .insertInto('uploads')
        .values(ballot.uploads.map((u) => ({ ...u, ballot_id: ballotId, created_at: createdAt })))
        .execute();
    checkpoint('uploads');
    if (ballot.receiptMail) {
      await trx
        .insertInto('mail_messages')
        .values({ ...ballot.receiptMail, project_id: ballot.projectId, kind: 'receipt', status: 'queued', attempts: 0, sent_at: null, detail: null })
        .execute();
    }

    const receipt: BallotReceipt = { ballot_id: ballotId, receipt: code, reservations: outcomes };
    if (ballot.idempotencyKey) await completeIdempotencyKey(trx, ballot.idempotencyKey, { ballotId, status: 201, body: JSON.stringify(receipt) });
    checkpoint('idempotency');
    return receipt;
  });
}
