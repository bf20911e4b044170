import { atom } from 'nanostores';
import { classifyAnswer, isFinal, type BallotVerdict } from '../../survey/ballots/ballot-answer.ts';
import { ballotSummary, formDataToBallot } from '../../survey/ballots/ballot-input.ts';
import { reportError, type ErrorContext } from '../../third-party/reporter.ts';
import { withOutbox } from './outbox-db.ts';
import { recordLateVerdict } from './delivery.ts';

/** A finished ballot kept on the device until the survey API has answered it for good. */
export interface QueuedBallot {
  /** The idempotency key: the same for every try, so the server stores the ballot once. */
  key: string;
  slug: string;
  url: string;
  entries: Array<[string, string | File]>;
  createdAt: number;
  /** True once the ballot's failure has gone to the error reporter: it is reported once, not on every try. */
  reported?: boolean;
}

/**
 * How long a kept ballot is retried on its own, from its createdAt; after that the voter is asked to send or download it.
 * Exported only so its unit test can check it directly; the product reaches it through the outbox's sending loop.
 * @internal
 */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;

/** How many ballots wait on this device to be sent; undefined until the device's store has been read. */
export const $queuedCount = atom<number | undefined>(undefined);

/** The kept ballots no longer retried on their own (older than STALE_AFTER_MS), for the voter to send again or download. */
export const $staleBallots = atom<QueuedBallot[]>([]);

/** Keeps a ballot on the device (before its first send, and again when it changes). */
export async function keepBallot(ballot: QueuedBallot): Promise<void> {
  await withOutbox('readwrite', (store) => store.put(ballot));
  await refreshCount();
}

/** Deletes a kept ballot once the server has answered for good. */
export async function forgetBallot(key: string): Promise<void> {
  await withOutbox('readwrite', (store) => store.delete(key));
  await refreshCount();
}

/** Every ballot kept on this device. */
function keptBallots(): Promise<QueuedBallot[]> {
  return withOutbox('readonly', (store) => store.getAll() as IDBRequest<QueuedBallot[]>);
}

async function refreshCount(now = Date.now()): Promise<void> {
  const all = await keptBallots();
  $staleBallots.set(all.filter((ballot) => isStale(ballot, now)));
  $queuedCount.set(all.length);
}

/**
 * True once a kept ballot has waited STALE_AFTER_MS since it was made: it is no longer retried in silence.
 * Exported only so its unit test can check it directly; the product reaches it through the outbox's sending loop.
 * @internal
 */
export function isStale(ballot: Pick<QueuedBallot, 'createdAt'>, now: number): boolean {
  return now - ballot.createdAt >= STALE_AFTER_MS;
}

/**
 * The kept ballots the outbox tries on its own: those not yet stale.
 * Exported only so its unit test can check it directly; the product reaches it through the outbox's sending loop.
 * @internal
 */
export function dueBallots<T extends Pick<QueuedBallot, 'createdAt'>>(ballots: T[], now: number): T[] {
  return ballots.filter((ballot) => !isStale(ballot, now));
}

/** Sends a ballot once and reads the answer (src/survey/ballots/ballot-answer.ts). */
export async function sendBallot(ballot: QueuedBallot): Promise<BallotVerdict> {
  const body = new FormData();
  for (const [name, value] of ballot.entries) body.append(name, value);
  let response: Response;
  try {
    // Accept tells the API this is the page's script, which reads JSON, not a form posted without JavaScript.
    response = await fetch(ballot.url, { method: 'POST', body, headers: { 'Idempotency-Key': ballot.key, Accept: 'application/json' }, credentials: 'omit' });
  } catch (error) {
    return classifyAnswer({ networkError: error instanceof Error ? error.message : String(error) });
  }
  return classifyAnswer({ status: response.status, body: await response.json().catch(() => null) });
}

/**
 * What the device does with a kept ballot after a try: forget it (final answer), and whether to report it now.
 * Exported only so its unit test can check it directly; the product reaches it through the outbox's sending loop.
 * @internal
 */
export function afterSend(ballot: Pick<QueuedBallot, 'reported'>, verdict: BallotVerdict): { forget: boolean; report: boolean } {
  // An answer that says nothing new of the ballot (stored, a vote already in, a try in flight) is no error.
  const failure = verdict.kind === 'refused' || verdict.kind === 'try-later';
  return { forget: isFinal(verdict), report: failure && !ballot.reported };
}

/** The error a failed ballot is reported with. */
function failureError(verdict: BallotVerdict): Error {
  if (verdict.kind === 'refused') return new Error(`The survey API refused a ballot (HTTP ${verdict.status})`);
  return new Error(`A ballot could not be sent: ${verdict.kind === 'try-later' ? verdict.reason : verdict.kind}`);
}

/** The ballot as an error report carries it: texts, files by name, size and type. */
function ballotOf(ballot: Pick<QueuedBallot, 'entries'>): Record<string, unknown> {
  const form = new FormData();
  for (const [name, value] of ballot.entries) form.append(name, value);
  return ballotSummary(formDataToBallot(form));
}

/**
 * Reports a ballot's failure unless it was reported before, and remembers in the kept ballot
 * that it was: a ballot goes to the error reporter once, however often it is tried.
 */
export async function reportOnce(ballot: QueuedBallot, verdict: BallotVerdict, context: ErrorContext = {}, kept = true): Promise<void> {
  if (!afterSend(ballot, verdict).report) return;
  ballot.reported = true;
  await Promise.all([
    reportError(failureError(verdict), { ballot: ballotOf(ballot), tags: { survey: ballot.slug }, ...context }),
    kept && !isFinal(verdict) ? keepBallot(ballot).catch(() => {}) : undefined,
  ]);
}

/** Where a resent ballot's verdict is told (the thank-you page's delivery listens). */
export type OutboxListener = (ballot: QueuedBallot, verdict: BallotVerdict) => void;

let timer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;
let flushing = false;
// A kept ballot's final answer reaches its survey's thank-you page.
let listener: OutboxListener = (ballot, verdict) => recordLateVerdict(ballot.slug, ballot.key, verdict);
let started = false;

/** Sends one kept ballot, reports its failure once, tells the listener, and forgets it on a final answer. */
async function tryBallot(ballot: QueuedBallot): Promise<BallotVerdict> {
  const verdict = await sendBallot(ballot);
  await reportOnce(ballot, verdict);
  // Told before it is forgotten: a page waiting for the queue to empty then finds the delivery recorded.
  listener(ballot, verdict);
  if (isFinal(verdict)) await forgetBallot(ballot.key);
  return verdict;
}

/**
 * Sends every kept ballot younger than STALE_AFTER_MS again; while any stays unsent, tries again
 * with exponential backoff (2 s doubling to 5 min), and at once when the browser comes back online.
 * Older ones wait for the voter (resendBallot, downloadBallot).
 */
async function flushOutbox(now: () => number = Date.now): Promise<void> {
  if (flushing) return;
  flushing = true;
  clearTimeout(timer);
  let pending = 0;
  try {
    for (const ballot of dueBallots(await keptBallots(), now())) {
      if (!isFinal(await tryBallot(ballot))) pending++;
    }
  } catch (error) {
    console.error('The ballots kept on this device could not be read.', error);
  } finally {
    flushing = false;
  }
  await refreshCount(now()).catch(() => {});
  if (pending > 0) {
    const delay = Math.min(2000 * 2 ** attempt++, 5 * 60 * 1000);
    timer = setTimeout(() => void flushOutbox(now), delay);
  } else {
    attempt = 0;
  }
}

/** Tries the kept ballots again after the backoff's next delay: for a ballot that has just failed its first send. */
export function retryLater(): void {
  if (typeof indexedDB === 'undefined') return;
  listenOnline();
  clearTimeout(timer);
  timer = setTimeout(() => void flushOutbox(), Math.min(2000 * 2 ** attempt++, 5 * 60 * 1000));
}

/** Sends one kept ballot now, at the voter's request, whatever its age; resolves with the verdict. */
export async function resendBallot(key: string): Promise<BallotVerdict | undefined> {
  const ballot = (await keptBallots()).find((kept) => kept.key === key);
  if (!ballot) return undefined;
  const verdict = await tryBallot(ballot);
  await refreshCount().catch(() => {});
  return verdict;
}

/**
 * A kept ballot as a file the voter can save: its answers, files by name, size and type (the secret stays out).
 * Exported only so its unit test can check it directly; the product reaches it through the outbox's kept-ballot download.
 * @internal
 */
export function ballotDownload(ballot: QueuedBallot): { name: string; text: string } {
  const day = new Date(ballot.createdAt).toISOString().slice(0, 10);
  const text = JSON.stringify({ survey: ballot.slug, made: new Date(ballot.createdAt).toISOString(), key: ballot.key, ballot: ballotOf(ballot) }, null, 2);
  return { name: `ballot-${ballot.slug}-${day}.json`, text };
}

/** Saves a kept ballot to the voter's downloads. */
export function downloadBallot(ballot: QueuedBallot): void {
  const { name, text } = ballotDownload(ballot);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function listenOnline(): void {
  if (started) return;
  started = true;
  addEventListener('online', () => {
    attempt = 0;
    void flushOutbox();
  });
}

/** Starts resending kept ballots on this page: now, with backoff, and whenever the connection returns. */
export function startOutbox(onVerdict?: OutboxListener): void {
  if (typeof indexedDB === 'undefined') return;
  if (onVerdict) listener = onVerdict;
  listenOnline();
  void flushOutbox();
}
