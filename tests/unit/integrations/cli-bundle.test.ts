import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundlePath, freshBundle, manifestPath } from '../../../src/integrations/cli-bundle/manifest.mjs';

describe('the bundled command line runs only while every file it was made of is unchanged', () => {
  let dir: string;
  let sources: string[];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'peervote-cli-bundle-'));
    sources = ['a.ts', 'b.ts'].map((name) => path.join(dir, name));
    for (const file of sources) writeFileSync(file, `export const name = '${file}';\n`);
    mkdirSync(path.join(dir, 'dist/cli'), { recursive: true });
    writeFileSync(bundlePath(path.join(dir, 'dist'), 'results'), '// the bundle\n');
    const inputs = Object.fromEntries(sources.map((file) => [file, [statSync(file).size, statSync(file).mtimeMs]]));
    writeFileSync(manifestPath(path.join(dir, 'dist'), 'results'), JSON.stringify({ inputs }));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = () => freshBundle(path.join(dir, 'dist'), 'results');

  it('as built: the bundle', () => {
    expect(fresh()).toBe(pathToFileURL(path.join(dir, 'dist/cli/results.mjs')).href);
  });

  it('a file changed, even to the same size, or touched: the sources', () => {
    writeFileSync(sources[0], `export const name = '${sources[0].replace(/a\.ts$/, 'z.ts')}';\n`);
    expect(fresh()).toBeUndefined();
  });

  it('a file given another time alone: the sources', () => {
    utimesSync(sources[1], new Date(), new Date(Date.now() + 60_000));
    expect(fresh()).toBeUndefined();
  });

  it('a file removed: the sources', () => {
    rmSync(sources[1]);
    expect(fresh()).toBeUndefined();
  });

  it('no manifest (none built, or a build under way), or an unreadable one: the sources', () => {
    rmSync(manifestPath(path.join(dir, 'dist'), 'results'));
    expect(fresh()).toBeUndefined();
    writeFileSync(manifestPath(path.join(dir, 'dist'), 'results'), '{"inputs":');
    expect(fresh()).toBeUndefined();
  });
});
