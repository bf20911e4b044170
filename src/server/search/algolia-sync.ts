import { algoliasearch } from 'algoliasearch';
import type { Nominee } from '../../survey/nominees/nominee.struct.ts';
import { toHit } from './nominee-engine.ts';

/** Records sent in one batch request; Algolia advises batches of about 1,000 records or 10 MB. */
const SYNC_BATCH_SIZE = 1000;

/**
 * The index settings that make Algolia search as the local engine does: the name first, then
 * the detail columns; one typo from five letters; 12 hits a page; `specialty` usable in the
 * optionalFilters a slot sends, so its sub-category's nominees rank first.
 * Exported only so its unit tests can check it directly; the product reaches it through the nominee index sync.
 * @internal
 */
export const INDEX_SETTINGS = {
  searchableAttributes: ['name', 'unordered(specialty)', 'unordered(practice)', 'unordered(city)'],
  attributesForFaceting: ['filterOnly(specialty)'],
  attributesToRetrieve: ['id', 'name', 'specialty', 'city', 'practice'],
  minWordSizefor1Typo: 5,
  minWordSizefor2Typos: 64,
  hitsPerPage: 12,
  ignorePlurals: false,
  removeStopWords: false,
};

/** What to push where, and how. */
export interface SyncOptions {
  appId: string;
  /** An admin or write key: the search-only key in survey.yaml may not write. */
  adminKey: string;
  indexName: string;
  nominees: readonly Nominee[];
  batchSize?: number;
  /** For tests: the hosts to send to instead of Algolia's. */
  hosts?: Array<{ url: string; protocol: 'http' | 'https'; accept: 'read' | 'write' | 'readWrite' }>;
  log?: (line: string) => void;
}

/**
 * Replaces every record of the index with the nominee list, as algoliasearch's
 * replaceAllObjects does, with progress: copy the index's rules and synonyms to a temporary
 * index, set our settings there, send the records in batches, wait for Algolia to apply them,
 * then move the temporary index over the live one in one step, so voters never search a
 * half-filled index. The temporary index is deleted if anything fails.
 */
export async function syncNominees({
  appId,
  adminKey,
  indexName,
  nominees,
  batchSize = SYNC_BATCH_SIZE,
  hosts,
  log = console.log,
}: SyncOptions): Promise<{ batches: number; records: number }> {
  const client = algoliasearch(appId, adminKey, hosts ? { hosts } : undefined);
  const temporary = `${indexName}_tmp_${Date.now()}`;
  const tasks: number[] = [];
  try {
    log(`Copying rules and synonyms of ${indexName} to ${temporary}…`);
    tasks.push(
      (await client.operationIndex({ indexName, operationIndexParams: { operation: 'copy', destination: temporary, scope: ['rules', 'synonyms'] } })).taskID,
    );
    tasks.push((await client.setSettings({ indexName: temporary, indexSettings: INDEX_SETTINGS })).taskID);
    const records = nominees.map(toHit);
    let sent = 0;
    let batches = 0;
    for (let start = 0; start < records.length; start += batchSize) {
      const chunk = records.slice(start, start + batchSize);
      const { taskID } = await client.batch({ indexName: temporary, batchWriteParams: { requests: chunk.map((body) => ({ action: 'addObject', body })) } });
      tasks.push(taskID);
      sent += chunk.length;
      batches++;
      log(`  sent ${sent.toLocaleString('en')} / ${records.length.toLocaleString('en')} nominees (batch ${batches})`);
    }
    log('Waiting for Algolia to index them…');
    for (const taskID of tasks) await client.waitForTask({ indexName: temporary, taskID });
    log(`Replacing ${indexName} with ${temporary}…`);
    const { taskID } = await client.operationIndex({ indexName: temporary, operationIndexParams: { operation: 'move', destination: indexName } });
    await client.waitForTask({ indexName: temporary, taskID });
    log(`Done: ${indexName} holds ${records.length.toLocaleString('en')} nominees.`);
    return { batches, records: records.length };
  } catch (error) {
    await client.deleteIndex({ indexName: temporary }).catch(() => undefined);
    throw error;
  }
}
