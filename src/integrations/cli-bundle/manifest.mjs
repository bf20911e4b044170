// Where the build puts a bundled command, and whether it may run. Plain JavaScript, so that a
// command's start (bin/results.mjs) reads it without loading Node's TypeScript stripper: that
// alone took some 0.12 s of the 0.28 s a bundled command needed to start.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What the build writes beside a bundled command (`dist/cli/<name>.inputs.json`): every file the
 * bundle was made of, by absolute path, with its size and modification time as they were then.
 * @typedef {{ readonly inputs: Readonly<Record<string, readonly [size: number, mtimeMs: number]>> }} BundleManifest
 */

/**
 * The bundled command `name` of a build whose output folder is `outDir`.
 * @param {string} outDir
 * @param {string} name
 * @returns {string}
 */
export function bundlePath(outDir, name) {
  return path.join(outDir, 'cli', `${name}.mjs`);
}

/**
 * Its manifest, written last: a bundle without one is never run.
 * @param {string} outDir
 * @param {string} name
 * @returns {string}
 */
export function manifestPath(outDir, name) {
  return path.join(outDir, 'cli', `${name}.inputs.json`);
}

/**
 * The address of the bundled command `name` when every file it was made of is still as it was
 * when it was built (none changed, moved or removed); undefined otherwise, or when there is none,
 * so that the caller runs the sources. A changed import graph always changes a file it already had.
 * @param {string} outDir
 * @param {string} name
 * @returns {string | undefined}
 */
export function freshBundle(outDir, name) {
  /** @type {BundleManifest} */
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(outDir, name), 'utf8'));
  } catch {
    return undefined;
  }
  for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.size !== size || stat.mtimeMs !== mtimeMs) return undefined;
  }
  return pathToFileURL(bundlePath(outDir, name)).href;
}
