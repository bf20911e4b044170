import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import boundaries of STYLE.md, as biome.jsonc states them, its ban on import circles, and its
// ban on focused and skipped tests, each shown to fail: every case is a
// short file written at the path it names (with, for a circle, the file it imports written beside it),
// in a scratch project holding a copy of biome.jsonc,
// linted by the project's Biome. A case with a `refused` message must draw exactly that
// diagnostic; a case without one must draw none, so a rule that grows too wide fails here too.
interface Case {
  /** Where the file pretends to live, from the project root. */
  file: string;
  /** Its one import. */
  source: string;
  /** The start of the message Biome must give, or nothing when the import is allowed. */
  refused?: string;
  /**
   * A second file written beside the case's own, for a rule about how two files import each other:
   * both keep the names given (so each pair needs names of its own), and both must draw the same
   * message, or none.
   */
  beside?: { file: string; source: string };
}

const ISLANDS = 'Islands never import each other';
const SERVER = 'Only endpoints (src/pages/api/) and the middleware import server-only code';
const RESULTS = "results/ is the operator's side: only bin/ and the console's acts (src/server/console/) import it";
const STORES = 'Stores hold the state and actions the islands use';
const DOMAIN = 'survey/ is the domain shared by the build, the browser and the server';
const PLAIN = 'survey/ is plain TypeScript';
const SERVER_ONLY = 'server/ is server-only';
const OPERATOR = "results/ is the operator's side, run by bin/";
const PAGE = 'A page gathers data and hands it to a layout or component';
const ENDPOINT = 'An endpoint stays thin';
const ENDPOINT_SIDE = 'An endpoint imports server code and the domain';
const CYCLE = 'This import is part of a cycle.';
const ROUTE_TABLE = 'The route table imports nothing';
const MAIL = "mail/ is shared by the survey API and the operator's CLI";
const MAIL_SIDE = "mail/ runs on the server and the operator's side";
const CONSOLE_PAGE = 'A console page reads what it shows from src/server/console/console-pages.ts alone';

const cases: Case[] = [
  // a ballot component imports no island and nothing from server/ or results/
  { file: 'src/ballot/submit/Probe.tsx', source: "import X from '../writeins/WriteIns.tsx';", refused: ISLANDS },
  { file: 'src/ballot/fields/Probe.tsx', source: "import X from './BallotFields.tsx';", refused: ISLANDS },
  { file: 'src/ballot/Probe.tsx', source: "import { x } from '../server/http.ts';", refused: SERVER },
  { file: 'src/ballot/fields/Probe.tsx', source: "export const x = () => import('../../server/db/database.ts');", refused: SERVER },
  { file: 'src/ballot/fields/Probe.tsx', source: "import { x } from '../../results/tally/tally.ts';", refused: RESULTS },
  { file: 'src/ballot/fields/Probe.tsx', source: "import { x } from './answers.ts';" },
  { file: 'src/ballot/fields/Probe.tsx', source: "import { x } from './FieldView.tsx';" },
  { file: 'src/ballot/islands.ts', source: "export { default as X } from './submit/SubmitBar.tsx';" },
  // the ballot's stores import no component
  { file: 'src/ballot/submit/probe.ts', source: "import X from '../fields/FieldView.tsx';", refused: STORES },
  { file: 'src/ballot/probe.ts', source: "import X from './SurveyHome.astro';", refused: STORES },
  { file: 'src/ballot/submit/probe.ts', source: "import { x } from '../../server/config.ts';", refused: SERVER },
  { file: 'src/ballot/submit/probe.ts', source: "import { x } from '../../survey/ballots/ballot-keys.ts';" },
  { file: 'src/ballot/submit/probe.ts', source: "export const x = () => import('../../search/search-client.ts');" },
  // the other browser features and the build's integrations
  { file: 'src/thanks/probe.ts', source: "import { x } from '../server/http.ts';", refused: SERVER },
  { file: 'src/figures/probe.ts', source: "import { x } from '../results/report/report-data.ts';", refused: RESULTS },
  { file: 'src/search/probe.ts', source: "import { x } from '../survey/nominees/nominee-search.ts';" },
  // the domain
  { file: 'src/survey/probe.ts', source: "import { x } from '../ballot/fields/answers.ts';", refused: DOMAIN },
  { file: 'src/survey/probe.ts', source: "export { x } from '../ballot/islands.ts';", refused: DOMAIN },
  { file: 'src/survey/probe.ts', source: "import { x } from '../server/http.ts';", refused: SERVER },
  { file: 'src/survey/probe.ts', source: "import { useState } from 'react';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { getCollection } from 'astro:content';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { DatabaseSync } from 'node:sqlite';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { atom } from 'nanostores';", refused: PLAIN },
  { file: 'src/survey/probe.ts', source: "import { object } from 'superstruct';" },
  { file: 'src/survey/probe.ts', source: "import { x } from './errors.ts';" },
  // the survey API
  { file: 'src/server/probe.ts', source: "import { x } from '../ballot/fields/answers.ts';", refused: SERVER_ONLY },
  { file: 'src/server/intake/probe.ts', source: "import X from '../../ballot/submit/SubmitBar.tsx';", refused: SERVER_ONLY },
  { file: 'src/server/intake/probe.ts', source: "import { x } from '../../results/tally/tally.ts';", refused: RESULTS },
  { file: 'src/server/probe.ts', source: "import { x } from '../results/refused.ts';", refused: RESULTS },
  { file: 'src/server/people/probe.ts', source: "export const x = () => import('../../results/refused.ts');", refused: RESULTS },
  { file: 'src/server/probe.ts', source: "import { x } from '../survey/ballots/ballot-keys.ts';" },
  // the console's acts call the operator's side as bin/ does (one rule written once), and still import nothing of the browser
  { file: 'src/server/console/probe.ts', source: "import { admitRefused } from '../../results/refused.ts';" },
  { file: 'src/server/console/probe.ts', source: "import { x } from '../../results/tally/tally.ts';" },
  { file: 'src/server/console/probe.ts', source: "import X from '../../ballot/submit/SubmitBar.tsx';", refused: SERVER_ONLY },
  { file: 'src/server/console/probe.ts', source: "import X from '../../pages/console/index.astro';", refused: SERVER_ONLY },
  { file: 'src/server/probe.ts', source: "import { x } from './routes.ts';" },
  // the mail transport, shared by the API and the CLI
  { file: 'src/mail/probe.ts', source: "import { x } from '../server/config.ts';", refused: MAIL },
  { file: 'src/mail/probe.ts', source: "import { x } from '../results/operator.ts';", refused: MAIL },
  { file: 'src/mail/probe.ts', source: "import { x } from '../ballot/store.ts';", refused: MAIL_SIDE },
  { file: 'src/mail/probe.ts', source: "import { x } from '../survey/config/config.struct.ts';" },
  { file: 'src/server/probe.ts', source: "import { x } from '../mail/transport.ts';" },
  { file: 'src/results/probe.ts', source: "import { x } from '../mail/transport.ts';" },
  // the route table, which bin/serve.mjs runs in plain Node (its rule names the file: one case)
  { file: 'src/server/routes.ts', source: "import { x } from './http.ts';", refused: ROUTE_TABLE },
  // the operator's side
  { file: 'src/results/tally/probe.ts', source: "import { x } from '../../ballot/fields/answers.ts';", refused: OPERATOR },
  { file: 'src/results/tally/probe.ts', source: "import { x } from '../../server/db/schema.ts';" },
  { file: 'src/results/tally/probe.ts', source: "import { x } from '../../survey/config/config.struct.ts';" },
  // pages and endpoints
  { file: 'src/components/Probe.astro', source: "---\nimport { x } from '../server/http.ts';\n---\n<p>{x}</p>", refused: SERVER },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport { x } from '../../server/config.ts';\n---\n<p>{x}</p>", refused: SERVER },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport { x } from '../../ballot/fields/answers.ts';\n---\n<p>{x}</p>", refused: PAGE },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport X from '../../ballot/SurveyHome.astro';\n---\n<X />" },
  // the console's pages, drawn on demand, read their data from the console's one page-data module
  { file: 'src/pages/console/probe.astro', source: "---\nimport { x } from '../../server/console/console-pages.ts';\n---\n<p>{x}</p>" },
  { file: 'src/pages/console/[slug]/probe.astro', source: "---\nimport { x } from '../../../server/console/console-pages.ts';\n---\n<p>{x}</p>" },
  { file: 'src/pages/console/probe.astro', source: "---\nimport { x } from '../../server/db/database.ts';\n---\n<p>{x}</p>", refused: CONSOLE_PAGE },
  { file: 'src/pages/console/probe.astro', source: "---\nimport { x } from '../../server/console/sessions.ts';\n---\n<p>{x}</p>", refused: CONSOLE_PAGE },
  { file: 'src/pages/console/probe.astro', source: "---\nimport { x } from '../../results/tally/tally.ts';\n---\n<p>{x}</p>", refused: RESULTS },
  { file: 'src/pages/[slug]/probe.astro', source: "---\nimport { x } from '../../server/console/console-pages.ts';\n---\n<p>{x}</p>", refused: SERVER },
  { file: 'src/console/Probe.astro', source: "---\nimport { x } from '../server/console/console-pages.ts';\n---\n<p>{x}</p>", refused: SERVER },
  { file: 'src/console/probe.ts', source: "import { x } from '../results/refused.ts';", refused: RESULTS },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../server/db/database.ts';", refused: ENDPOINT },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../server/intake/ballots.repository.ts';", refused: ENDPOINT },
  { file: 'src/pages/api/probe.ts', source: "import { sql } from 'kysely';", refused: ENDPOINT },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../ballot/fields/answers.ts';", refused: ENDPOINT_SIDE },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../results/tally/tally.ts';", refused: RESULTS },
  { file: 'src/pages/api/probe.ts', source: "import { x } from '../../server/search/search-reply.ts';" },
  { file: 'src/pages/api/[...route].ts', source: "import { answerRoute } from '../../server/route-handlers.ts';" },
  { file: 'src/pages/api/[...route].ts', source: "import { x } from '../../server/db/database.ts';", refused: ENDPOINT },
  { file: 'src/middleware.ts', source: "import { x } from './server/config.ts';" },
  // no import circle, through a dynamic import() or types only as well; one way is fine
  {
    file: 'src/ballot/probe-a.ts',
    source: "import { b } from './probe-b.ts';\nexport const a = () => b;",
    beside: { file: 'src/ballot/probe-b.ts', source: "import { a } from './probe-a.ts';\nexport const b = () => a;" },
    refused: CYCLE,
  },
  {
    file: 'src/ballot/probe-c.ts',
    source: "export const c = () => import('./submit/probe-d.ts');",
    beside: { file: 'src/ballot/submit/probe-d.ts', source: "import { c } from '../probe-c.ts';\nexport const d = c;" },
    refused: CYCLE,
  },
  {
    file: 'src/survey/probe-e.ts',
    source: "import type { F } from './probe-f.ts';\nexport type E = F[];",
    beside: { file: 'src/survey/probe-f.ts', source: "import type { E } from './probe-e.ts';\nexport interface F {\n  e?: E;\n}" },
    refused: CYCLE,
  },
  {
    file: 'src/ballot/probe-g.ts',
    source: "import { h } from './submit/probe-h.ts';\nexport const g = () => import('./submit/probe-h.ts').then(() => h);",
    beside: { file: 'src/ballot/submit/probe-h.ts', source: 'export const h = 1;' },
  },
  // no test is focused or skipped
  { file: 'tests/unit/probe.test.ts', source: "import { it } from 'vitest';\nit.only('runs alone', () => {});", refused: "Don't focus the test." },
  { file: 'tests/e2e/probe.spec.ts', source: "import { test } from '@playwright/test';\ntest.skip('never runs', () => {});", refused: "Don't disable tests." },
  { file: 'tests/unit/probe.test.ts', source: "import { it } from 'vitest';\nit('runs', () => {});" },
];

/** The rules these cases are about; the probes' other findings (their unused imports) are not. */
const RULES = ['style/noRestrictedImports', 'suspicious/noImportCycles', 'suspicious/noFocusedTests', 'suspicious/noSkippedTests'];

const root = path.resolve(import.meta.dirname, '../..');
const biome = path.join(root, 'node_modules/.bin/biome');
let scratch = '';

/** Files whose rules name them, so their cases keep the name. */
const KEEP_NAME = new Set(['src/middleware.ts', 'src/ballot/islands.ts', 'src/server/routes.ts']);

/** Where a case's file is written: its path with the case's number before the extension, so that cases sharing a path
 * stay apart; a file a rule names, or one of a pair that import each other by name, keeps its name. */
function caseFile(c: Case, index: number): string {
  if (KEEP_NAME.has(c.file) || c.beside) return c.file;
  const { dir, name, ext } = path.parse(c.file);
  return path.join(dir, `${name}-${index}${ext}`);
}

/** The diagnostics of those rules, by the file they are about. */
const found = new Map<string, string[]>();

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  copyFileSync(path.join(root, 'biome.jsonc'), path.join(scratch, 'biome.jsonc'));
  const write = (name: string, source: string) => {
    const file = path.join(scratch, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${source}\n`);
  };
  cases.forEach((c, index) => {
    write(caseFile(c, index), c.source);
    if (c.beside) write(c.beside.file, c.beside.source);
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
  // Every rule as configured, not `--only` these: a rule named with `--only` runs even where biome.jsonc turns it off.
  const args = ['lint', '--vcs-enabled=false', '--reporter=json', '--max-diagnostics=none', '.'];
  try {
    return JSON.parse(execFileSync(biome, args, { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
  } catch (error) {
    // Biome exits 1 when it finds an error; the report is still on stdout.
    return JSON.parse((error as { stdout: string }).stdout);
  }
}

describe('STYLE.md import boundaries, no import circles, and whole test runs', () => {
  cases.forEach((c, index) => {
    const shown = (file: string, source: string) => `${file}: ${source.replace(/\n/g, ' ')}`;
    const title = `${shown(c.file, c.source)}${c.beside ? `, beside ${shown(c.beside.file, c.beside.source)}` : ''} is ${c.refused ? 'refused' : 'allowed'}`;
    it(title, () => {
      for (const file of [caseFile(c, index), ...(c.beside ? [c.beside.file] : [])]) {
        const messages = found.get(file) ?? [];
        if (c.refused) {
          expect(messages, file).toHaveLength(1);
          expect(messages[0]).toContain(c.refused);
        } else {
          expect(messages, file).toEqual([]);
        }
      }
    });
  });
});
