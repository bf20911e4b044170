import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { fillVoter, nominate, voter } from './ballot-helpers.ts';
import { startSentryRecorder } from '../support/sentry-recorder.ts';
import { ROOT, startServer } from '../support/server.mjs';

// Error reporting is set at build time (PUBLIC_SENTRY_DSN): the suite's own build has none,
// so this file also builds the site with a DSN that points at a local stand-in for Sentry's
// ingest, and serves that build on a port of its own.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);
const FIRST_PORT = Number(process.env.E2E_PORT ?? 4322) + 30;

/** Fills a whole demo ballot with a file, and submits it. */
async function submitDemoBallot(page: Page, who: ReturnType<typeof voter>): Promise<void> {
  await fillVoter(page, who);
  await page.getByLabel('Headshot for the issue (optional)').setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: PNG });
  await nominate(page, 'Cardiology, First Nomination', 'jose alv', 'José Álvarez-Ruiz');
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/top-doctors-demo\/thankyou$/);
}

test.describe('with a Sentry DSN', () => {
  test.describe.configure({ mode: 'serial' });
  let sentry: Awaited<ReturnType<typeof startSentryRecorder>>;
  let server: Awaited<ReturnType<typeof startServer>>;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    sentry = await startSentryRecorder(FIRST_PORT);
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', 'dist-e2e/sentry'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ASTRO_TELEMETRY_DISABLED: '1',
        PUBLIC_SENTRY_DSN: sentry.dsn,
        PUBLIC_SENTRY_ENVIRONMENT: 'e2e',
        PUBLIC_SENTRY_RELEASE: 'peervote@e2e',
      },
      stdio: 'pipe',
    });
    server = await startServer({
      env: { PEERVOTE_DIST: 'dist-e2e/sentry', DATA_DIR: 'data/e2e-sentry', RATE_LIMIT_MAX: '0' },
      ports: { base: FIRST_PORT + 1, span: 19 },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    await sentry?.close();
  });

  test('a refused post is reported with the ballot attached (files by name and size) and the voter as user', async ({ page }) => {
    await page.route('**/api/survey?*', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 422, contentType: 'application/json', body: '{"error":"invalid_ballot","problems":[]}' })
        : route.fallback(),
    );
    const who = voter('sentry');
    await page.goto(`${server.url}/top-doctors-demo/`);
    await submitDemoBallot(page, who);

    await expect.poll(() => sentry.events().length, { timeout: 15_000 }).toBe(1);
    const [{ event, attachments }] = sentry.events();
    expect(event.exception.values[0].value).toBe('The survey API refused a ballot (HTTP 422)');
    expect(event).toMatchObject({ environment: 'e2e', release: 'peervote@e2e', tags: { survey: 'top-doctors-demo' } });
    expect(event.user).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: who.email, name: `${who.first} ${who.last}` });
    expect(attachments).toHaveLength(1);
    expect(attachments[0].header).toMatchObject({ type: 'attachment', filename: 'ballot.json', content_type: 'application/json' });
    const ballot = attachments[0].payload;
    expect(ballot).toMatchObject({
      email: who.email,
      'medical-practice': who.practice,
      affirm: 'on',
      'nominations[Heart and Lungs][Cardiology][1]': expect.any(String),
    });
    expect(ballot.headshot).toEqual({ file: 'portrait.png', size: PNG.length, type: 'image/png' });
  });

  test('a post lost to the network is reported too, and the voter still reaches the thank-you page', async ({ page }) => {
    const before = sentry.events().length;
    await page.route('**/api/survey?*', (route) => (route.request().method() === 'POST' ? route.abort('connectionreset') : route.fallback()));
    await page.goto(`${server.url}/top-doctors-demo/`);
    await submitDemoBallot(page, voter('sentry-net'));
    await expect.poll(() => sentry.events().length, { timeout: 15_000 }).toBe(before + 1);
    const { event, attachments } = sentry.events().at(-1)!;
    expect(event.exception.values[0].value).toMatch(/^A ballot could not be sent: /);
    expect(attachments.map((item) => item.header.filename)).toEqual(['ballot.json']);
  });

  test('the page allows the Sentry host in its Content-Security-Policy, and nothing else besides', async ({ request }) => {
    const response = await request.get(`${server.url}/top-doctors-demo/`);
    const policy = response.headers()['content-security-policy'];
    expect(policy).toContain(`connect-src 'self' ${new URL(sentry.dsn).origin};`);
    expect(policy).not.toMatch(/https:/);
  });
});

test.describe("without a Sentry DSN (the suite's build)", () => {
  test('the build holds no Sentry code', () => {
    const assets = path.join(ROOT, 'dist/client/_astro');
    const withSentry = readdirSync(assets).filter((file) => file.endsWith('.js') && /sentry/i.test(readFileSync(path.join(assets, file), 'utf8')));
    expect(withSentry).toEqual([]);
  });

  test('a failed post goes to the console only: no request leaves for an error service', async ({ page, baseURL }) => {
    const requests: string[] = [];
    const logged: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => message.type() === 'error' && logged.push(message.text()));
    await page.route('**/api/survey?*', (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 422, body: '{}' }) : route.fallback()));
    await page.goto('/top-doctors-demo/');
    await submitDemoBallot(page, voter('no-sentry'));
    expect(logged.some((text) => text.includes('The survey API refused a ballot (HTTP 422)'))).toBe(true);
    expect(requests.filter((url) => !url.startsWith(baseURL!))).toEqual([]);
  });
});
