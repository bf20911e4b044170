/** The device's database of kept ballots, and its one store. */
const DB_NAME = 'peervote';
const STORE = 'outbox';

/** Opens the device's database of kept ballots, creating it on first use. */
function openOutboxDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * False when this device has never kept a ballot (it has no database of them), found without
 * opening one, which would create it: a first visit does no database work. True when it may have.
 */
export async function outboxExists(): Promise<boolean> {
  if (typeof indexedDB.databases !== 'function') return true;
  try {
    return (await indexedDB.databases()).some((database) => database.name === DB_NAME);
  } catch {
    return true;
  }
}

/** Runs a request on the kept-ballots store in one transaction; resolves with its result once committed. */
export async function withOutbox<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openOutboxDb();
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
