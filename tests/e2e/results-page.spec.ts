import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { ROOT, startServer } from '../support/server.mjs';
import { PEER_CHECK_BALLOTS } from '../support/peer-check-ballots.ts';
import type { PublishedResults } from '../../src/survey/published/published-results.ts';

// The results page as a reader meets it: the surveys (with the peer-check survey's published
// folder, the one tests/api/published-results.test.ts publishes on both databases) built into a
// site of their own and served; the other surveys have published nothing.
const OUT_DIR = 'dist-e2e/results';
const PUBLISHED = path.join(ROOT, 'tests/api/fixtures/published/peer-check');
const RESULTS = JSON.parse(readFileSync(path.join(PUBLISHED, 'results.json'), 'utf8')) as PublishedResults;
/** The receipt codes the published ballots carry, in the ledger's order. */
const CODE = { replaced: '7K3M-Q9TD-2X00', partly: '7k3m q9td 2x02', counted: '7K3M-Q9TD-2X04' };

test.describe('the results page', () => {
  test.describe.configure({ mode: 'serial' });
  let server: Awaited<ReturnType<typeof startServer>>;
  let surveys: string;
  let dataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    surveys = mkdtempSync(path.join(tmpdir(), 'peervote-results-surveys-'));
    dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-results-data-'));
    cpSync(path.join(ROOT, 'surveys'), surveys, { recursive: true });
    cpSync(path.join(ROOT, 'tests/api/fixtures/surveys/peer-check'), path.join(surveys, 'peer-check'), { recursive: true });
    cpSync(PUBLISHED, path.join(surveys, 'peer-check/results'), { recursive: true });
    cpSync(path.join(ROOT, 'src/results/publish/verify.mjs'), path.join(surveys, 'peer-check/results/verify.mjs'));
    rmSync(path.join(ROOT, OUT_DIR), { recursive: true, force: true });
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', OUT_DIR], {
      cwd: ROOT,
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', SURVEYS_DIR: surveys },
      stdio: 'pipe',
    });
    server = await startServer({
      env: { PEERVOTE_DIST: OUT_DIR, SURVEYS_DIR: surveys, DATA_DIR: dataDir, RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(surveys, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('shows the winners each sub-category marks, with their counted votes, the head and when published', async ({ page }) => {
    await page.goto(`${server.url}/peer-check/results/`);
    await expect(page.getByRole('heading', { name: 'Results', level: 2 })).toBeVisible();
    for (const sub of RESULTS.subcategories) {
      const section = page.getByRole('region', { name: `Medicine ${sub.subcategory}` });
      const winners = sub.nominees.filter((nominee) => nominee.winner);
      expect(winners.length).toBeGreaterThan(0);
      await expect(section.locator('.results-winners')).toHaveText(`Winners: ${winners.map((w) => w.name).join(', ')}`);
      for (const nominee of sub.nominees.filter((n) => n.counted > 0)) {
        const row = section.getByRole('row', { name: new RegExp(`^${nominee.rank} ${nominee.name}${nominee.winner ? ' Winner' : ''} ${nominee.counted}$`) });
        await expect(row).toBeVisible();
      }
    }
    await expect(page.getByText('Published 1 February 2030 at 12:00 UTC.', { exact: false })).toBeVisible();
    await expect(page.locator('.results-head')).toHaveText(RESULTS.head);
    await expect(page.getByRole('region', { name: 'Participation' })).toContainText(`Ballots received${RESULTS.ballots.received}`);
  });

  test('checks a counted, a partly counted, a replaced and an unknown code in the browser; the code is never sent', async ({ page }) => {
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url() + (request.postData() ?? '')));
    await page.goto(`${server.url}/peer-check/results/`);
    const box = page.getByRole('textbox', { name: 'Receipt code' });
    const answer = page.locator('[data-answer]');
    const check = async (code: string) => {
      await box.fill(code);
      await page.getByRole('button', { name: 'Check' }).click();
    };
    await check(CODE.counted);
    await expect(answer).toContainText('Your ballot was counted: every vote on it is in the published results. (ledger line 5)');
    await check(CODE.partly);
    await expect(answer).toContainText('Your ballot was partly counted');
    await expect(answer.getByRole('listitem')).toHaveText([
      'Cardiology, Ana Ferreira: not counted, because a rule of the published methodology leaves this vote out (see "How the votes are counted").',
    ]);
    await check(CODE.replaced);
    await expect(answer).toContainText('This ballot was replaced by a newer ballot you sent before the close');
    await check('ZZZZ-ZZZZ-ZZZZ');
    await expect(answer).toContainText('No ballot with this receipt code is in the published ledger.');
    await check('not a code');
    await expect(answer).toContainText('That is not a receipt code.');
    const codes = [...Object.values(CODE), 'ZZZZ-ZZZZ-ZZZZ'].flatMap((code) => [code, code.replace(/[-\s]/g, '').toUpperCase()]);
    for (const url of asked) for (const code of codes) expect(url.toUpperCase(), url).not.toContain(code.toUpperCase());
  });

  test('is accessible and readable at 360 px, and at 1280 px', async ({ page }) => {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${server.url}/peer-check/results/`);
      await expectNoAxeViolations(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: test.info().outputPath(`results-${width}.png`), fullPage: true });
    }
  });

  test('without JavaScript the check form is not offered, so a code can never go into an address', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/peer-check/results/`);
    await expect(page.getByLabel('Receipt code')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Check' })).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Results', level: 2 })).toBeVisible();
    await context.close();
  });

  test('serves the published files byte for byte', async ({ request }) => {
    for (const name of ['results.json', 'ledger.jsonl', 'verify.mjs']) {
      const response = await request.get(`${server.url}/peer-check/results/${name}`);
      expect(response.status(), name).toBe(200);
      expect((await response.body()).equals(readFileSync(path.join(surveys, 'peer-check/results', name))), name).toBe(true);
    }
  });

  test('names no voter: the built page and every file beside it hold none of their personal data', async ({ request }) => {
    const nominees = new Set(RESULTS.subcategories.flatMap((sub) => sub.nominees.map((nominee) => nominee.name)));
    const people = Object.values(parse(readFileSync(path.join(surveys, 'peer-check/prepopulation.yaml'), 'utf8')) as Record<string, Record<string, string>>);
    const personal = new Set<string>();
    for (const ballot of PEER_CHECK_BALLOTS) {
      const answers = ballot.answers ?? {};
      const name = [answers['name-first'], answers['name-last']].filter(Boolean).join(' ');
      for (const value of [ballot.secret, ballot.at.slice(0, 16), name, ...Object.values(answers)]) if (value) personal.add(value);
    }
    for (const person of people) for (const value of Object.values(person)) personal.add(String(value));
    for (const secret of Object.keys(parse(readFileSync(path.join(surveys, 'peer-check/prepopulation.yaml'), 'utf8')))) personal.add(secret);
    // A voter who is also a nominee is named as a nominee, never as a voter; practices are the nominees' too.
    const practices = new Set(readFileSync(path.join(surveys, 'peer-check/nominees.csv'), 'utf8').split(/[,\n]/));
    const named = (value: string) => [...nominees].some((name) => name.toLowerCase().includes(value.toLowerCase()));
    const scanned = [...personal].filter((value) => value.length > 3 && !named(value) && !practices.has(value) && !/^[cd]-\d$/.test(value));
    expect(scanned).toEqual(expect.arrayContaining(['carl@example.org', 'MD-5000', 'sec-ana-R7kw2Pq', 'Carl Lee', 'Zed Young', 'Demo User']));
    const folder = path.join(ROOT, OUT_DIR, 'client/peer-check/results');
    const files = [
      ...readdirSync(folder).filter((name) => !/\.(br|gz)$/.test(name) && name !== 'receipts'),
      ...readdirSync(path.join(folder, 'receipts')).map((name) => `receipts/${name}`),
    ];
    const page = await (await request.get(`${server.url}/peer-check/results/`)).text();
    for (const [name, text] of [['the page', page], ...files.map((name) => [name, readFileSync(path.join(folder, name), 'utf8')])]) {
      for (const value of scanned) {
        // As a whole word: "Demo", a voter's name, is not "demonstration".
        const word = new RegExp(`(^|[^\\p{L}\\p{N}_])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^\\p{L}\\p{N}_])`, 'iu');
        expect(word.test(text), `${value} in ${name}`).toBe(false);
      }
    }
  });

  test('a survey that has published nothing answers 404 at its results address, and "results" is no secret', async ({ page }) => {
    const response = await page.goto(`${server.url}/top-doctors-demo/results/`);
    expect(response!.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    const bare = await page.goto(`${server.url}/top-doctors-demo/results`);
    expect(bare!.status()).toBe(404);
  });
});
