import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, expectNoAxeViolations, test as base } from './fixtures.ts';
import { startServer } from '../support/server.mjs';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** A server of its own on npm start's defaults (messages as files under DATA_DIR/mail), and `npm run results` on its data. */
const test = base.extend<{ vote: { url: string; dataDir: string; results: (args: string[]) => Promise<string> } }>({
  vote: async ({}, use) => {
    const dir = await mkdtemp(path.join(tmpdir(), 'peervote-e2e-mail-'));
    const dataDir = path.join(dir, 'data');
    const server = await startServer({ env: { DATA_DIR: dataDir, RATE_LIMIT_MAX: '0' }, ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 } });
    try {
      await fetch(`${server.url}/api/health`);
      const env = { ...process.env, DATA_DIR: dataDir, PEERVOTE_BASE_URL: server.url, SMTP_URL: '', MAIL_FROM: '' };
      const results = async (args: string[]) => (await run(process.execPath, ['bin/results.mjs', ...args], { cwd: ROOT, env })).stdout;
      await use({ url: server.url, dataDir, results });
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ vote }, use) => use(vote.url),
});

test('the unsubscribe link of an invitation asks to confirm with a button, then says it is done', async ({ page, vote }) => {
  await vote.results(['send', 'top-doctors-demo', 'invitations']);
  const folder = path.join(vote.dataDir, 'mail', 'top-doctors-demo');
  const [file] = await readdir(folder);
  const link = /^List-Unsubscribe:\s*<([^>]+)>/m.exec(await readFile(path.join(folder, file), 'utf8'))?.[1];
  expect(link).toMatch(/\/api\/unsubscribe\/[\w-]{43}$/);

  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(link!);
    await expect(page.getByRole('heading', { name: 'Stop the invitations and reminders?' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`unsubscribe-${width}.png`), fullPage: true });
    await expectNoAxeViolations(page);
  }
  expect(await vote.results(['deliveries', 'top-doctors-demo'])).toContain(',sent,1,0,');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('unsubscribed-1280.png'), fullPage: true });
  await expectNoAxeViolations(page);
  expect(await vote.results(['deliveries', 'top-doctors-demo'])).toContain(',unsubscribed,1,0,');
});
