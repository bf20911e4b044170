import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import boundaries of STYLE.md, as biome.jsonc states them, and its ban on focused and skipped
// tests, each shown to fail: every case is a
// one-line file written at the path it names, in a scratch project holding a copy of biome.jsonc,
// linted by the project's Biome. A case with a `refused` message must draw exactly that
// diagnostic; a case without one must draw none, so a rule that grows too wide fails here too.
interface Case {
  /** Where the file pretends to live, from the project root. */
  file: string;
  /** Its one import. */
  source: string;
  /** The start of the message Biome must give, or nothing when the import is allowed. */
  refused?: string;
}

const ISLANDS = 'Islands never import each other';
const PIECES = "An island's pieces import no island";
const SERVER = 'Only endpoints (src/pages/api/) and the middleware import server-only code';
const STORES = 'Stores hold the state and actions the islands use';
const DOMAIN = 'survey/ is the domain shared by the build, the browser and the server';
const PLAIN = 'survey/ is plain TypeScript';
const SERVER_ONLY = 'server/ is server-only';
const PAGE = 'A page gathers data and hands it to a layout or component';
const ENDPOINT = 'An endpoint stays thin';
const ENDPOINT_SIDE = 'An endpoint imports server code and the domain';

const cases: Case[] = [
  // islands import no island and nothing from server/
  { file: 'src/islands/Probe.tsx', source: "import X from './SubmitBar.tsx';", refused: ISLANDS },
  { file: 'src/islands/Probe.tsx', source: "import { x } from '../server/http.ts';", refused: SERVER },
  { file: 'src/islands/Probe.tsx', source: "export const x = () => import('../server/db/instance.ts');", refused: SERVER },
  { file: 'src/islands/fields/Probe.tsx', source: "import X from '../BallotFields.tsx';", refused: PIECES },
  { file: 'src/islands/fields/Probe.tsx', source: "export { x } from '../../server/config.ts';", refused: SERVER },
  { file: 'src/islands/Probe.tsx', source: "import { x } from '../stores/answers.ts';" },
  { file: 'src/islands/Probe.tsx', source: "import { x } from './fields/FieldView.tsx';" },
  { file: 'src/islands/SubmitBar.tsx', source: "import { x } from './DraftLine.tsx';" },
  { file: 'src/islands/fields/Probe.tsx', source: "import { x } from './FieldError.tsx';" },
  { file: 'src/islands/ballot.ts', source: "export { default as X } from './SubmitBar.tsx';" },
  // stores import no island (nor server/)
  { file: 'src/stores/probe.ts', source: "import X from '../islands/WriteIns.tsx';", refused: STORES },
  { file: 'src/stores/probe.ts', source: "import { x } from '../server/config.ts';", refused: SERVER },
  { file: 'src/stores/probe.ts', source: "import { x } from '../survey/ballot-keys.ts';" },
  { file: 'src/stores/probe.ts', source: "export const x = () => import('../search/search-client.ts');" },
  // survey/ is shared: no store, island or server, no Astro, React or database
  { file: 'src/survey/probe.ts', source: "import { x } from '../stores/answers.ts';", refused: DOMAIN },
  { file: 'src/survey/probe.ts', source: "export { x } from '../islands/ballot.ts';", refused: DOMAIN },
  { file: 'src/survey/probe.ts', source: "import { x } from '../server/http.ts';", refused: SERVER },
  { file: 'src/survey/probe.ts', source: "import { useState } from 'react';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { getCollection } from 'astro:content';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { DatabaseSync } from 'node:sqlite';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { atom } from 'nanostores';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { object } from 'superstruct';" },
  { file: 'src/survey/probe.ts', source: "import { x } from './errors.ts';" },
  // server/ imports no store or island
  { file: 'src/server/probe.ts', source: "import { x } from '../stores/answers.ts';", refused: SERVER_ONLY },
  { file: 'src/server/results/probe.ts', source: "import X from '../../islands/SubmitBar.tsx';", refused: SERVER_ONLY },
  { file: 'src/server/probe.ts', source: "import { x } from '../survey/ballot-keys.ts';" },
  // only endpoints and the middleware reach server/; routes stay thin
  { file: 'src/components/Probe.astro', source: "---\nimport { x } from '../server/http.ts';\n---\n<p>{x}</p>", refused: SERVER },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport { x } from '../../server/config.ts';\n---\n<p>{x}</p>", refused: SERVER },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport { x } from '../../stores/answers.ts';\n---\n<p>{x}</p>", refused: PAGE },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport X from '../../components/SurveyHome.astro';\n---\n<X />" },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../server/db/instance.ts';", refused: ENDPOINT },
  { file: 'src/pages/api/probe.ts', source: "import { sql } from 'kysely';", refused: ENDPOINT },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../stores/answers.ts';", refused: ENDPOINT_SIDE },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../server/survey-routes.ts';" },
  { file: 'src/middleware.ts', source: "import { x } from './server/config.ts';" },
  // no test is focused or skipped
  { file: 'tests/unit/probe.test.ts', source: "import { it } from 'vitest';\nit.only('runs alone', () => {});", refused: "Don't focus the test." },
  { file: 'tests/e2e/probe.spec.ts', source: "import { test } from '@playwright/test';\ntest.skip('never runs', () => {});", refused: "Don't disable tests." },
  { file: 'tests/unit/probe.test.ts', source: "import { it } from 'vitest';\nit('runs', () => {});" },
];

/** The rules these cases are about; the probes' other findings (their unused imports) are not. */
const RULES = ['style/noRestrictedImports', 'suspicious/noFocusedTests', 'suspicious/noSkippedTests'];

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
let scratch = '';

/** Where a case's file is written: its path with the case's number before the extension, so that cases sharing a path
 * stay apart; the middleware keeps its name, which its rule names. */
function caseFile(c: Case, index: number): string {
  if (c.file === 'src/middleware.ts') return c.file;
  const { dir, name, ext } = path.parse(c.file);
  return path.join(dir, `${name}-${index}${ext}`);
}

/** The diagnostics of those rules, by the file they are about. */
const found = new Map<string, string[]>();

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  copyFileSync(path.join(root, 'biome.jsonc'), path.join(scratch, 'biome.jsonc'));
  cases.forEach((c, index) => {
    const file = path.join(scratch, caseFile(c, index));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${c.source}\n`);
  });
  for (const d of lint(scratch).diagnostics) {
    if (RULES.some((rule) => d.category === `lint/${rule}`)) found.set(d.location.path, [...(found.get(d.location.path) ?? []), d.message]);
  }
}, 60_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Biome's JSON report for the scratch project, linted with a copy of the project's configuration. */
function lint(folder: string): { diagnostics: { category: string; message: string; location: { path: string } }[] } {
  const rules = RULES.map((rule) => `--only=${rule}`);
  const args = ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', ...rules, '.'];
  try {
    return JSON.parse(execFileSync(biome, args, { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    // Biome exits 1 when it finds an error; the report is still on stdout.
    return JSON.parse((error as { stdout: string }).stdout);
  }
}

describe('STYLE.md import boundaries and whole test runs', () => {
  cases.forEach((c, index) => {
    const title = `${c.file}: ${c.source.replace(/\n/g, ' ')} is ${c.refused ? 'refused' : 'allowed'}`;
    it(title, () => {
      const messages = found.get(caseFile(c, index)) ?? [];
      if (c.refused) {
        expect(messages).toHaveLength(1);
        expect(messages[0]).toContain(c.refused);
      } else {
        expect(messages).toEqual([]);
      }
    });
  });
});
