import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** A file's modification time and size as one text; 'absent' when it cannot be read. */
export function fileStamp(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'absent';
  }
}

/**
 * A text that changes whenever a file of the surveys folder (its own files and each survey
 * folder's files, one level down) is added, removed, rewritten or touched: a few dozen stat
 * calls, cheap enough to take once a second. Files of the folder itself named in `skip` are
 * left out: another follower reads them.
 */
export function folderStamp(dir: string, skip: ReadonlySet<string> = new Set()): string {
  const parts: string[] = [];
  const visit = (folder: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      parts.push(`${folder}:absent`);
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth === 0) visit(full, 1);
      } else if (depth > 0 || !skip.has(entry.name)) {
        parts.push(`${full}:${fileStamp(full)}`);
      }
    }
  };
  visit(dir, 0);
  return parts.join('\n');
}

/**
 * Keeps a value derived from files and derives it again once `stamp()` changes, checking at
 * most once per `everyMs`, or per `withinMs` for a caller that asks with it (one that did not
 * find what it looked for). When deriving again fails (a file caught half-written), the last
 * good value stays in service and the failure is logged once; the first derivation's failure is thrown.
 */
export function followFiles<T>(stamp: () => string, derive: () => T, everyMs = 1000): (withinMs?: number) => T {
  let current: { stamp: string; value: T } | undefined;
  let checkedAt = 0;
  let failedStamp: string | undefined;
  return (withinMs = everyMs) => {
    const now = Date.now();
    // A clock set back (by NTP, or a test) looks again rather than waiting for the old time to come round.
    if (current && now >= checkedAt && now - checkedAt < withinMs) return current.value;
    checkedAt = now;
    const seen = stamp();
    if (current && seen === current.stamp) return current.value;
    if (current && seen === failedStamp) return current.value;
    try {
      current = { stamp: seen, value: derive() };
      failedStamp = undefined;
    } catch (error) {
      if (!current) throw error;
      failedStamp = seen;
      console.error(`Kept the surveys in service as they were: ${error instanceof Error ? error.message : error}`);
    }
    return current.value;
  };
}
