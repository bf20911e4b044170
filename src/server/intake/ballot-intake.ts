import { serverConfig } from '../config.ts';
import { database } from '../db/database.ts';
import { personOfSecret, type ServerSurvey } from '../surveys.ts';
import { countAgainstLimit } from '../rate-limit.ts';
import { requestTime } from '../request-hooks.ts';
import { checkLink, readBallot } from './ballot-request.ts';
import { checkBallot } from './ballot-checks.ts';
import { claimKey } from './idempotency.ts';
import { releaseIdempotencyKey } from './idempotency.repository.ts';
import { fingerprint } from './multipart.ts';
import { keepRefused } from './refusals.ts';
import { storeChecked } from './ballot-storage.ts';
import { isRefused, tryLater, type IntakeOutcome } from './intake-outcome.ts';
import { provenTarget } from '../verify/ballot-proof.ts';
import { burstFriction } from './burst-friction.ts';

/**
 * Receives one ballot (`POST /api/survey`), step by step: the rate limit, the link and expiry,
 * the body's size and shape, the Idempotency-Key's claim (or the answer to an earlier request
 * under it), the burst friction, the ballot struct and the files' contents, then one transaction.
 * Returns what became of it, stored or not, and leaves saying it in HTTP to the endpoint
 * (ballot-post.ts). A well-formed ballot refused for a rule is kept in `refused_ballots` for an
 * operator to admit; it stores nothing in the ballots. `adaptForm` turns a form posted without
 * JavaScript into the parts the islands send.
 */
export async function receiveBallot(
  request: Request,
  connection: string | undefined,
  options: { adaptForm?: (form: FormData, survey: ServerSurvey) => FormData } = {},
): Promise<IntakeOutcome> {
  const config = serverConfig();
  const now = requestTime(request);
  const limit = await countAgainstLimit('ballot', request, connection, now);
  if (limit) return tryLater('rate_limited', limit.message, limit.retryAfter);

  const query = new URL(request.url).searchParams;
  const target = await checkLink(query, now);
  const body = await readBallot(request, config);
  // A well-formed ballot refused for its link is kept; a malformed request refused for its link is not.
  if (isRefused(target)) return isRefused(body) ? target : keepRefused(target, query, body.form, now);
  if (isRefused(body)) return body;
  const proof = provenTarget(target, body.form, request, now);
  if (isRefused(proof)) return keepRefused(proof, query, body.form, now);
  // A verified voter of the roster counts as their personal link's person.
  const proven = proof.secret && !proof.person ? { ...proof, person: await personOfSecret(proof.survey.config.project_id, proof.secret) } : proof;
  const form = options.adaptForm ? options.adaptForm(body.form, target.survey) : body.form;
  const { key } = body;

  const { db } = await database();
  const print = key ? await fingerprint(query, form) : '';
  // The key is claimed before the ballot is weighed, in one statement: a request seen before gets
  // its first answer (or is asked to wait), and a new one holds its key from here on. Whatever
  // does not end in a stored ballot (a refusal, a wait, a failure) lets the key go, so that a
  // retry runs again; a stored ballot's transaction completed the key with its receipt.
  const held = key && (await claimKey(db, { key, fingerprint: print, now, lockMs: config.idempotencyLockMs }, target.survey.slug));
  if (held) return held;
  const letGo = async () => {
    if (key) await releaseIdempotencyKey(db, key).catch(() => {});
  };
  const weighAndStore = async (): Promise<IntakeOutcome> => {
    const burst = await burstFriction(db, config, proven, request, connection, now);
    if (burst) return burst;
    const checked = await checkBallot(target.survey, proven.person, form);
    if (isRefused(checked)) return keepRefused(checked, query, form, now);
    const stored = await storeChecked(db, config, { request, connection, now, target: proven, checked, key });
    return isRefused(stored) ? keepRefused(stored, query, form, now) : stored;
  };
  let outcome: IntakeOutcome;
  try {
    outcome = await weighAndStore();
  } catch (error) {
    await letGo();
    throw error;
  }
  if (outcome.kind !== 'stored') await letGo();
  return outcome;
}
