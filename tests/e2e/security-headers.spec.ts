import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseHeaderRules, headersFor } from '../../bin/static-rules.mjs';
import { expect, SECRETS, test } from './fixtures.ts';
import { hitsOf, interceptThirdParties } from './third-party-stubs.ts';
import { laterRequest } from './waits.ts';
import { parsePolicy } from '../../src/survey/api/headers.ts';

const headersFile = readFileSync(path.resolve('dist/client/_headers'), 'utf8');
const rules = parseHeaderRules(headersFile);
/** What `_headers` says a static host sends for a path: name (lower case) → values. */
const written = (pathname: string) => {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of headersFor(rules, pathname)) (headers[name.toLowerCase()] ??= []).push(value);
  return headers;
};
const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `)) ?? '';

const HARDENING = {
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

test('every page and API answer carries the hardening headers, as _headers writes them for static hosts', async ({ request }) => {
  for (const pathname of ['/top-doctors-demo/', '/members-choice/thankyou', '/_astro/', '/api/health']) {
    const response = await request.get(pathname, { maxRedirects: 0 });
    expect(response.headers(), pathname).toMatchObject(HARDENING);
    expect(response.headers()['permissions-policy']).toContain('camera=()');
  }
  for (const [name, value] of Object.entries(HARDENING)) expect(written('/anything')[name]).toEqual([value]);
});

/** A page's <meta> policy, read back as directives. */
const metaPolicy = (html: string) =>
  parsePolicy((/<meta http-equiv="content-security-policy" content="([^"]*)">/.exec(html)?.[1] ?? '').replaceAll('&amp;', '&'));

/** The inline scripts a page writes that a browser runs, by their SHA-256 as a policy names them. */
const inlineScriptHashes = (html: string) =>
  [...html.matchAll(/<script(?![^>]*\ssrc=)(?![^>]*type="application\/)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );

test('a survey with nothing configured allows no third party: its own origin and the hashes of its inline code', async ({ request }) => {
  const response = await request.get('/top-doctors-demo/');
  const policy = response.headers()['content-security-policy'];
  const html = await response.text();
  // The page's own policy: the hashes of its own inline scripts, and none of another page's.
  expect(directive(policy, 'script-src').split(' ').slice(2).toSorted()).toEqual(inlineScriptHashes(html).toSorted());
  // A static host sends the folder's policy, which allows at least as much: the page runs there too.
  const folder = parsePolicy(written('/top-doctors-demo/')['content-security-policy']![0]!);
  for (const [name, sources] of parsePolicy(policy)) expect(folder.get(name), name).toEqual(expect.arrayContaining(sources));
  expect(policy).not.toMatch(/https?:/);
  expect(policy).not.toContain("'unsafe-inline'");
  expect(directive(policy, 'default-src')).toBe("default-src 'self'");
  expect(directive(policy, 'script-src')).toMatch(/^script-src 'self'( 'sha256-[\w+/=]+')+$/);
  expect(directive(policy, 'connect-src')).toBe("connect-src 'self'");
  expect(directive(policy, 'object-src')).toBe("object-src 'none'");
  expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  // The page's <meta> carries the same policy but frame-ancestors, which only a header can say.
  const header = parsePolicy(policy);
  header.delete('frame-ancestors');
  expect(metaPolicy(html)).toEqual(header);
});

test('a personal link is sent the policy of the page it is answered with', async ({ request }) => {
  const response = await request.get(`/members-choice/${SECRETS.member}`);
  const header = parsePolicy(response.headers()['content-security-policy']!);
  expect(header.get('frame-ancestors')).toEqual(["'none'"]);
  header.delete('frame-ancestors');
  expect(metaPolicy(await response.text())).toEqual(header);
});

test("the not-found page carries its own policy outside every survey, and its folder's inside one", async ({ request }) => {
  const outside = await request.get('/nowhere/');
  expect(outside.status()).toBe(404);
  expect([outside.headers()['content-security-policy']]).toEqual(written('/404.html')['content-security-policy']);
  // The not-found page writes no script of its own: its policy allows none inline.
  expect(directive(outside.headers()['content-security-policy'], 'script-src')).toBe("script-src 'self'");
  const inside = await request.get('/top-doctors-demo/no/such/page');
  expect(inside.status()).toBe(404);
  expect([inside.headers()['content-security-policy']]).toEqual(written('/top-doctors-demo/')['content-security-policy']);
});

test('the site’s accessibility statement, outside every survey, carries its own policy, from its folder’s block of _headers', async ({ request }) => {
  expect(written('/accessibility/')['content-security-policy']).toHaveLength(1);
  for (const pathname of ['/accessibility/', '/accessibility/conformance.yaml']) {
    const response = await request.get(pathname);
    expect(response.status()).toBe(200);
    expect([response.headers()['content-security-policy']], pathname).toEqual(written('/accessibility/')['content-security-policy']);
  }
  const policy = (await request.get('/accessibility/')).headers()['content-security-policy'];
  expect(directive(policy, 'default-src')).toBe("default-src 'self'");
  expect(directive(policy, 'style-src')).toMatch(/^style-src 'self'( 'sha256-[\w+/=]+')+$/);
  expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
});

test('a survey that configures third parties allows exactly their hosts, for a personal link too', async ({ request }) => {
  const policy = (await request.get('/members-choice/')).headers()['content-security-policy'];
  expect((await request.get(`/members-choice/${SECRETS.member}`)).headers()['content-security-policy']).toBe(policy);
  expect(
    directive(policy, 'script-src')
      .split(' ')
      .filter((source) => source.startsWith('https:')),
  ).toEqual([
    'https://www.googletagmanager.com',
    'https://connect.facebook.net',
    'https://snap.licdn.com',
    'https://translate.google.com',
    'https://translate.googleapis.com',
    'https://translate-pa.googleapis.com',
  ]);
  // The demo survey's policy is its own: one survey's third parties do not open another's pages.
  expect((await request.get('/top-doctors-demo/')).headers()['content-security-policy']).not.toContain('googletagmanager');
});

test('the API answers with a policy that loads nothing and may not be framed', async ({ request }) => {
  const response = await request.get('/api/survey/faces/top-doctors-demo');
  expect(response.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
});

for (const pathname of [
  '/top-doctors-demo/',
  '/top-doctors-demo/thankyou',
  '/members-choice/demo',
  '/best-dentists-2024/',
  '/nowhere/',
  '/members-choice/no/such/page',
  '/accessibility/',
  '/top-doctors-demo/accessibility/',
]) {
  test(`${pathname} runs under its policy without a single violation`, async ({ page }) => {
    const hits = await interceptThirdParties(page);
    const violations: string[] = [];
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
    });
    page.on('console', (message) =>
      message.text().includes('Content Security Policy') || message.text().startsWith('CSP violation') ? violations.push(message.text()) : undefined,
    );
    // Loaded and hydrated: every script of the page has run.
    await page.goto(pathname);
    if (pathname === '/members-choice/demo') {
      // The third parties have started: GA4 has sent its page view, and the translate widget, the last to start, shows.
      await expect.poll(() => hitsOf(hits, 'ga-hit').length).toBeGreaterThan(0);
      await expect(page.getByRole('combobox', { name: 'Select Language' })).toBeVisible({ timeout: 8000 });
    }
    // A request later, whatever the page asked for before has been refused or let through.
    await laterRequest(page);
    expect(violations).toEqual([]);
  });
}
