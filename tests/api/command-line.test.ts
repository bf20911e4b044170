import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every module URL a run of `npm run results -- ARGS` loads, as Node's module hooks see them. */
async function modulesLoaded(args: string[]): Promise<string[]> {
  const hook = `import { registerHooks } from 'node:module';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(seen)));`;
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, 'bin/results.ts', ...args], {
    cwd: ROOT,
  });
  return JSON.parse(stderr.slice(stderr.lastIndexOf('LOADED ') + 'LOADED '.length)) as string[];
}

describe("the operator's command line, as built", () => {
  test('runs as the one file the build bundled, not as its six hundred modules', async () => {
    const loaded = await modulesLoaded(['--help']);
    expect(loaded).toContain(pathToFileURL(path.join(ROOT, 'dist/cli/results.mjs')).href);
    expect(loaded.filter((url) => url.includes('/node_modules/') || url.includes('/src/survey/'))).toEqual([]);
    expect(loaded.filter((url) => url.startsWith('file:')).length).toBeLessThan(5);
  });
});
