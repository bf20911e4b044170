import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { runResults } from '../support/results-cli.ts';
import { startApi, type Api } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every module URL a run of `npm run results -- ARGS` loads, as Node's module hooks see them. */
async function modulesLoaded(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const hook = `import { registerHooks } from 'node:module';
const seen = [];
registerHooks({ load(url, context, next) { seen.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(seen)));`;
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(hook)}`, 'bin/results.mjs', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return JSON.parse(stderr.slice(stderr.lastIndexOf('LOADED ') + 'LOADED '.length)) as string[];
}

/** The packages whose code the bundle's files that a run loaded hold (the bundler names each module's path in a comment above it). */
function packagesIn(loaded: string[]): Set<string> {
  const packages = new Set<string>();
  for (const url of loaded.filter((url) => url.startsWith(pathToFileURL(path.join(ROOT, 'dist/cli/')).href))) {
    for (const [, name] of readFileSync(fileURLToPath(url), 'utf8').matchAll(/^\/\/ node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)) packages.add(name);
  }
  return packages;
}

describe("the operator's command line, as built", () => {
  let api: Api;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api?.stop();
  });

  test('runs as the build bundled it, a few files, not as its six hundred modules', async () => {
    const loaded = await modulesLoaded(['--help']);
    expect(loaded).toContain(pathToFileURL(path.join(ROOT, 'dist/cli/results.mjs')).href);
    expect(loaded.filter((url) => url.includes('/node_modules/') || url.includes('/src/survey/'))).toEqual([]);
    expect(loaded.filter((url) => url.startsWith('file:')).length).toBeLessThan(5);
    // No TypeScript file on the way to the bundle: Node would load its type stripper for it, 0.12 s a run.
    expect(loaded.filter((url) => /\.[cm]?tsx?$/.test(url))).toEqual([]);
  });

  test("loads the mail transport only to send, and PostgreSQL's driver only on PostgreSQL", async () => {
    // The personal links go to a folder of this test's own, not into the surveys every file reads.
    const env = {
      SURVEYS_DIR: inject('surveysDir'),
      DATA_DIR: api.dataDir,
      DATABASE_URL: api.databaseUrl,
      PEERVOTE_PRIVATE_DIR: path.join(api.dataDir, 'private'),
    };
    const audit = packagesIn(await modulesLoaded(['audit', 'peer-check'], env));
    // The bundle's own packages are there: the check reads the files a run loads.
    expect(audit).toContain('kysely');
    expect(audit).not.toContain('nodemailer');
    expect(audit.has('pg')).toBe(api.dialect === 'postgres');
    // One invited person, whose invitation goes as a file (no SMTP_URL): send loads the transport.
    const roster = path.join(api.dataDir, 'roster.csv');
    writeFileSync(roster, 'email,name-first,name-last\nann@peer.example,Ann,Test\n');
    const invited = await runResults(['invite', 'peer-check', '--roster', roster, '--out', path.join(api.dataDir, 'links.csv')], env);
    expect(invited.code, invited.stderr).toBe(0);
    expect(packagesIn(await modulesLoaded(['send', 'peer-check', 'invitations'], env))).toContain('nodemailer');
  });
});

describe('the server, as built', () => {
  test('starts on the build’s bundle of what it reads of the sources, loading no TypeScript', async () => {
    // Every module the server process loads, one address a line, in a file of this test's own.
    const dir = mkdtempSync(path.join(tmpdir(), 'peervote-loaded-'));
    const file = path.join(dir, 'loaded.txt');
    const hook = `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({ load(url, context, next) { appendFileSync(${JSON.stringify(file)}, url + '\\n'); return next(url, context); } });`;
    const api = await startApi({ NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(hook)}` });
    try {
      const loaded = readFileSync(file, 'utf8').trim().split('\n');
      expect(loaded).toContain(pathToFileURL(path.join(ROOT, 'dist/cli/serve.mjs')).href);
      // Node would load its type stripper for a TypeScript file: some 0.15 s of every start.
      expect(loaded.filter((url) => /\.[cm]?tsx?$/.test(url))).toEqual([]);
    } finally {
      await api.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
