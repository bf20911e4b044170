import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BallotLink, NewUpload, NewWriteIn } from '../db/tables/ballots.table.ts';
import type { BallotParts } from '../../survey/ballots/ballot-parts.ts';
import type { BallotReceipt, ReservationOutcome } from '../../survey/api/api-replies.ts';
import { EXPERT_HOLD_MS } from '../../survey/ballots/tiles.ts';
import { claimTile } from '../reservations/tile-claims.repository.ts';
import { completeIdempotencyKey } from './idempotency.repository.ts';
import { newReceiptCode } from '../tokens.ts';
import { markResponded } from '../people/people.repository.ts';
import { nameKey } from '../../survey/nominees/name-key.ts';
import { countWriteIns } from './write-in-counts.repository.ts';

/** The rows a day's ballot count is spread over (ballot_days.shard): ballots arriving at once on PostgreSQL rarely wait on one another's. */
const DAY_SHARDS = 8;

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
  /** The address the voter proved with a mailed code; one current ballot per address. */
  verifiedEmail?: string;
  /** Whole seconds from the form becoming usable to Submit, as the page measured them. */
  fillSeconds?: number | null;
  /**
   * True when the survey lets a voter change their ballot (`amend: until_close`): the voter's
   * current ballot (same personal secret, or same verified address) is marked replaced by this
   * one, its tiles let go, instead of this one being refused.
   */
  replaces?: boolean;
  /**
   * The receipt page's address when the ballot is owed a receipt by mail: stored on the ballot's
   * own row, so that it is owed with the ballot or not at all; the API's outbox queues the message.
   */
  receiptMailDue?: string;
}

/** The voter's current ballots (by personal secret or verified address) inside a transaction, to be replaced. */
async function currentBallotsOf(trx: Kysely<Database>, ballot: BallotRecord): Promise<Array<{ id: string; created_at: string }>> {
  if (!ballot.personalSecret && !ballot.verifiedEmail) return [];
  return trx
    .selectFrom('ballots')
    .select(['id', 'created_at'])
    .where('project_id', '=', ballot.projectId)
    .where('replaced_by', 'is', null)
    .where((eb) =>
      eb.or([
        ...(ballot.personalSecret ? [eb('personal_secret', '=', ballot.personalSecret)] : []),
        ...(ballot.verifiedEmail ? [eb('verified_email', '=', ballot.verifiedEmail)] : []),
      ]),
    )
    .execute();
}

/**
 * Marks the voter's current ballots replaced by `ballotId` and lets their tiles go, so that the
 * new ballot may claim the same tiles again (a tile it does not claim is free for others).
 * Answers when the latest replaced ballot was sent, or undefined when there was none.
 */
async function replaceCurrent(trx: Kysely<Database>, ballot: BallotRecord, at: string): Promise<string | undefined> {
  const earlier = await currentBallotsOf(trx, ballot);
  if (!earlier.length) return undefined;
  const ids = earlier.map((row) => row.id);
  await trx.updateTable('ballots').set({ replaced_by: ballot.id, replaced_at: at }).where('id', 'in', ids).execute();
  await trx.deleteFrom('tile_claims').where('ballot_id', 'in', ids).execute();
  return earlier
    .map((row) => row.created_at)
    .sort()
    .at(-1);
}

/**
 * The console's counters, kept in the ballot's transaction, last of its writes so that the rows
 * other ballots share are held for the least time: its write-ins by group and spelling (not a
 * demonstration ballot's), the ballots of its day, and for a personal link the person's first response.
 */
async function countBallot(trx: Kysely<Database>, ballot: BallotRecord, createdAt: string, writeIns: readonly NewWriteIn[]): Promise<void> {
  if (ballot.link !== 'demo') await countWriteIns(trx, ballot.projectId, writeIns);
  await trx
    .insertInto('ballot_days')
    .values({ project_id: ballot.projectId, day: createdAt.slice(0, 10), shard: Math.floor(Math.random() * DAY_SHARDS), ballots: 1 })
    .onConflict((conflict) => conflict.columns(['project_id', 'day', 'shard']).doUpdateSet((eb) => ({ ballots: eb('ballot_days.ballots', '+', 1) })))
    .execute();
  if (ballot.personalSecret) await markResponded(trx, ballot.projectId, ballot.personalSecret);
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
 * key's answer. Any failure rolls all of it back. `checkpoint` runs between the writes. Given a
 * transaction (an operator's admission, with its mark and its audit entry), it writes in that one.
 */
export async function storeBallot(db: Kysely<Database>, ballot: BallotRecord, checkpoint: (point: Checkpoint) => void = () => {}): Promise<BallotReceipt> {
  const createdAt = ballot.createdAt.toISOString();
  const ballotId = ballot.id;
  const code = ballot.receipt ?? newReceiptCode();
  const write = async (trx: Kysely<Database>): Promise<BallotReceipt> => {
    const replacedSentAt = ballot.replaces ? await replaceCurrent(trx, ballot, createdAt) : undefined;
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
        verified_email: ballot.verifiedEmail ?? null,
        fill_seconds: ballot.fillSeconds ?? null,
        receipt_mail_due: ballot.receiptMailDue ?? null,
      })
      // No conflict target: a current ballot of the same secret or the same verified address
      // (two partial unique indexes) both mean the voter has voted.
      .onConflict((conflict) => conflict.doNothing())
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
    // Each write-in with its name folded as write-ins are grouped, for the console's queue.
    const writeInRows = writeIns.map((w) => ({
      ballot_id: ballotId,
      position: w.position,
      name: w.name,
      name_key: nameKey(w.name),
      category_group: w.group,
      subcategory: w.subcategory,
    }));
    if (writeInRows.length) await trx.insertInto('write_ins').values(writeInRows).execute();
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
    await countBallot(trx, ballot, createdAt, writeInRows);
    const receipt: BallotReceipt = { ballot_id: ballotId, receipt: code, reservations: outcomes };
    if (replacedSentAt) receipt.replaced_sent_at = replacedSentAt;
    if (ballot.idempotencyKey) await completeIdempotencyKey(trx, ballot.idempotencyKey, { ballotId, status: 201, body: JSON.stringify(receipt) });
    checkpoint('idempotency');
    return receipt;
  };
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}
