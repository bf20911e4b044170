import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ServerConfig } from '../config.ts';
import { uuidv7 } from '../ids.ts';
import { ballotCheckpoints, holdBallot } from '../request-hooks.ts';
import { requestHashes } from './signals-salt.ts';
import { AlreadySubmittedError, storeBallot } from './ballots.repository.ts';
import { removeFiles, storeFiles, type StoredFile } from './uploads.ts';
import type { CheckedBallot } from './ballot-checks.ts';
import type { BallotTarget } from './ballot-request.ts';
import { refused, type Refused, type Stored } from './intake-outcome.ts';
import { newReceiptCode } from '../tokens.ts';
import { receiptDue } from '../mail/receipt-mail.ts';
import { nudgeOutbox } from '../mail/outbox.ts';
import { m } from '../../i18n/messages.ts';

/** One checked ballot on its way into the database, with the request it came in. */
export interface BallotToStore {
  request: Request;
  /** The connection's address, for the fraud signals' hashes. */
  connection: string | undefined;
  now: Date;
  target: BallotTarget;
  checked: CheckedBallot;
  key: string | undefined;
}

/**
 * Stores a checked ballot: its files under random names, then every row of it in one
 * transaction, the key's receipt among them. On any failure the files are removed (the intake
 * lets the key go); a personal link that has voted already is refused (409), any other failure
 * thrown on.
 */
export async function storeChecked(db: Kysely<Database>, config: ServerConfig, ballot: BallotToStore): Promise<Stored | Refused> {
  const { request, now, target, checked, key } = ballot;
  const projectId = target.survey.config.project_id;
  let files: StoredFile[] = [];
  try {
    await holdBallot(request);
    files = await storeFiles(config.uploadsDir, checked.files);
    const code = newReceiptCode();
    const receiptMailDue = receiptDue(request, target);
    const receipt = await storeBallot(
      db,
      {
        id: uuidv7(now.getTime()),
        projectId,
        link: target.link,
        personalSecret: target.secret ?? null,
        createdAt: now,
        parts: checked.parts,
        uploads: files.map((file) => ({ id: file.id, field: file.field, original_name: file.originalName, content_type: file.contentType, size: file.size })),
        idempotencyKey: key,
        receipt: code,
        receiptMailDue,
        verifiedEmail: target.verifiedEmail,
        fillSeconds: checked.fillSeconds,
        // A voter on a personal link or verified may change their ballot until the close.
        replaces: target.survey.config.amend === 'until_close' && (target.secret !== undefined || target.verifiedEmail !== undefined),
        ...requestHashes(request, ballot.connection, config, projectId),
      },
      ballotCheckpoints(request),
    );
    if (receiptMailDue) nudgeOutbox();
    return { kind: 'stored', slug: target.survey.slug, receipt };
  } catch (error) {
    await removeFiles(config.uploadsDir, files);
    if (error instanceof AlreadySubmittedError && target.verifiedEmail && !target.secret)
      return refused('already_submitted', m.api_already_address(), [{ path: 'verification', message: m.api_already_used() }]);
    if (error instanceof AlreadySubmittedError) return refused('already_submitted', m.api_already_link(), [{ path: 'secret', message: m.api_already_used() }]);
    throw error;
  }
}
