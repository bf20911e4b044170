import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { onceImports } from '../../../src/integrations/page-modules.ts';

// The module as Astro writes it (astro/dist/vite-plugin-pages/pages.js), with two routes.
const PAGES = `const _page0 = () => import("./api.mjs");
const _page1 = () => import("./later.mjs");
const pageMap = new Map([
    ["src/pages/api/[...route].ts", _page0],
    ["src/pages/later.ts", _page1]
]);

export { pageMap };`;

describe("the server's route modules load once", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'peervote-page-modules-'));
    writeFileSync(path.join(dir, 'api.mjs'), 'export const page = () => "api";\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every call after the first with the same promise, and tries again a load that failed', () => {
    writeFileSync(path.join(dir, 'pages.mjs'), onceImports(PAGES));
    // In a Node of its own: the test runner resolves dynamic imports its own way.
    const check = `
      import { writeFileSync } from 'node:fs';
      const { pageMap } = await import(${JSON.stringify(pathToFileURL(path.join(dir, 'pages.mjs')).href)});
      const api = pageMap.get('src/pages/api/[...route].ts');
      const first = api();
      const same = api() === first;
      const page = (await first).page();
      const later = pageMap.get('src/pages/later.ts');
      const failed = await later().then(() => 'loaded', (error) => error.code);
      writeFileSync(${JSON.stringify(path.join(dir, 'later.mjs'))}, 'export const page = () => "later";');
      const retried = (await later()).page();
      console.log(JSON.stringify({ same, page, failed, retried }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({ same: true, page: 'api', failed: 'ERR_MODULE_NOT_FOUND', retried: 'later' });
  });

  it('leaves a module without route imports as it is', () => {
    const other = 'const pageMap = new Map([]);\nexport { pageMap };';
    expect(onceImports(other)).toBe(other);
  });
});
