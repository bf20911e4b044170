import { atom } from 'nanostores';

/** A finished ballot kept on the device until the survey API has acknowledged it. */
export interface QueuedBallot {
  /** The idempotency key: the same for every try, so the server stores the ballot once. */
  key: string;
  slug: string;
  url: string;
  entries: Array<[string, string | File]>;
  createdAt: number;
}

/** How a send ended: stored (with the receipt), refused for good (4xx), or to be tried again. */
export type SendOutcome = { kind: 'stored'; receipt: unknown } | { kind: 'refused'; status: number; body: unknown } | { kind: 'retry'; reason: string };

/** How many ballots wait on this device to be sent; undefined until the device's store has been read. */
export const $queuedCount = atom<number | undefined>(undefined);

const DB_NAME = 'peervote';
const STORE = 'outbox';

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function withStore<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = act(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** Keeps a ballot on the device before its first send. */
export async function keepBallot(ballot: QueuedBallot): Promise<void> {
  await withStore('readwrite', (store) => store.put(ballot));
  await refreshCount();
}

/** Deletes a kept ballot once the server has answered for good. */
export async function forgetBallot(key: string): Promise<void> {
  await withStore('readwrite', (store) => store.delete(key));
  await refreshCount();
}

/** Every ballot kept on this device. */
export function keptBallots(): Promise<QueuedBallot[]> {
  return withStore('readonly', (store) => store.getAll() as IDBRequest<QueuedBallot[]>);
}

async function refreshCount(): Promise<void> {
  $queuedCount.set(await withStore('readonly', (store) => store.count()));
}

/** Sends a ballot once: a network error or a 5xx answer means try again; another 4xx is final. */
export async function sendBallot(ballot: QueuedBallot): Promise<SendOutcome> {
  const body = new FormData();
  for (const [name, value] of ballot.entries) body.append(name, value);
  let response: Response;
  try {
    response = await fetch(ballot.url, { method: 'POST', body, headers: { 'Idempotency-Key': ballot.key }, credentials: 'omit' });
  } catch (error) {
    return { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
  }
  const answer = await response.json().catch(() => null);
  if (response.ok) return { kind: 'stored', receipt: answer };
  // 409: the same key is still being stored by an earlier try; 429: asked to slow down.
  if (response.status >= 500 || response.status === 409 || response.status === 429) return { kind: 'retry', reason: `HTTP ${response.status}` };
  return { kind: 'refused', status: response.status, body: answer };
}

/** Where a resent ballot's outcome is reported (the error reporter for a refusal). */
export type OutboxListener = (ballot: QueuedBallot, outcome: SendOutcome) => void;

let timer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;
let flushing = false;

/**
 * Sends every kept ballot again; while any stays unsent, tries again with exponential
 * backoff (2 s doubling to 5 min), and at once when the browser comes back online.
 */
export async function flushOutbox(onOutcome: OutboxListener = () => {}): Promise<void> {
  if (flushing) return;
  flushing = true;
  clearTimeout(timer);
  let pending = 0;
  try {
    for (const ballot of await keptBallots()) {
      const outcome = await sendBallot(ballot);
      if (outcome.kind === 'retry') pending++;
      // Reported before it is forgotten: a page waiting for the queue to empty then finds the receipt recorded.
      onOutcome(ballot, outcome);
      if (outcome.kind !== 'retry') await forgetBallot(ballot.key);
    }
  } catch (error) {
    console.error('The ballots kept on this device could not be read.', error);
  } finally {
    flushing = false;
  }
  await refreshCount().catch(() => {});
  if (pending > 0) {
    const delay = Math.min(2000 * 2 ** attempt++, 5 * 60 * 1000);
    timer = setTimeout(() => void flushOutbox(onOutcome), delay);
  } else {
    attempt = 0;
  }
}

/** Starts resending kept ballots on this page: now, with backoff, and whenever the connection returns. */
export function startOutbox(onOutcome?: OutboxListener): void {
  if (typeof indexedDB === 'undefined') return;
  addEventListener('online', () => {
    attempt = 0;
    void flushOutbox(onOutcome);
  });
  void flushOutbox(onOutcome);
}
