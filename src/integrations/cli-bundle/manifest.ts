import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What the build writes beside a bundled command (`dist/cli/<name>.inputs.json`): every file the
 * bundle was made of, by absolute path, with its size and modification time as they were then.
 */
export interface BundleManifest {
  readonly inputs: Readonly<Record<string, readonly [size: number, mtimeMs: number]>>;
}

/** The bundled command `name` of a build whose output folder is `outDir`. */
export function bundlePath(outDir: string, name: string): string {
  return path.join(outDir, 'cli', `${name}.mjs`);
}

/** Its manifest, written last: a bundle without one is never run. */
export function manifestPath(outDir: string, name: string): string {
  return path.join(outDir, 'cli', `${name}.inputs.json`);
}

/**
 * The address of the bundled command `name` when every file it was made of is still as it was
 * when it was built (none changed, moved or removed); undefined otherwise, or when there is none,
 * so that the caller runs the sources. A changed import graph always changes a file it already had.
 */
export function freshBundle(outDir: string, name: string): string | undefined {
  let manifest: BundleManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(outDir, name), 'utf8')) as BundleManifest;
  } catch {
    return undefined;
  }
  for (const [file, [size, mtimeMs]] of Object.entries(manifest.inputs)) {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat || stat.size !== size || stat.mtimeMs !== mtimeMs) return undefined;
  }
  return pathToFileURL(bundlePath(outDir, name)).href;
}
