import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readServerConfig } from '../../../src/server/config.ts';
import { foldWorkplaces, workplaceKey } from '../../../src/server/stats/workplaces.ts';
import { checkFileContents } from '../../../src/server/intake/uploads.ts';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';
import { clientAddress } from '../../../src/server/client-address.ts';
import { readIdempotencyKey } from '../../../src/server/intake/idempotency.ts';
import { uuidv7 } from '../../../src/server/ids.ts';
import { tileSlug } from '../../../src/survey/ballots/tiles.ts';
import { escapeHtml, plainPage, wantsPage } from '../../../src/server/html-page.ts';
import { json } from '../../../src/server/http.ts';

describe('configuration from the environment', () => {
  test('defaults: SQLite under ./data, 12 MB bodies, 30 posts a minute', () => {
    const config = readServerConfig({});
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sqliteFile).toMatch(/data\/peervote\.sqlite$/);
    expect(config.uploadsDir).toMatch(/data\/uploads$/);
    expect(config).toMatchObject({
      bodySizeLimit: 12 * 1024 * 1024,
      rateLimitMax: 30,
      rateLimitWindowMs: 60_000,
      trustProxy: 0,
      testHooks: false,
      allowedOrigins: [],
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  test.each([
    [{ BODY_SIZE_LIMIT: 'lots' }, 'BODY_SIZE_LIMIT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ALLOWED_ORIGINS: 'cdn.example.com' }, 'ALLOWED_ORIGINS'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
    [{ PEERVOTE_TEST_HOOKS: 'perhaps' }, 'PEERVOTE_TEST_HOOKS'],
    [{ SENTRY_DSN: 'o0.ingest.sentry.io/42' }, 'SENTRY_DSN'],
    [{ SENTRY_DSN: 'https://o0.ingest.sentry.io/42' }, 'SENTRY_DSN'],
  ])('a wrong %j fails naming the variable', (env, name) => {
    expect(() => readServerConfig(env)).toThrow(new RegExp(`^Environment variable ${name}:`));
  });

  test('the error says what was expected and what was given, but never a secret', () => {
    expect(() => readServerConfig({ BODY_SIZE_LIMIT: '12MB' })).toThrow(
      'Environment variable BODY_SIZE_LIMIT: expected a whole number of at least 1024, got "12MB"',
    );
    expect(() => readServerConfig({ BODY_SIZE_LIMIT: '100' })).toThrow(/BODY_SIZE_LIMIT: expected a whole number of at least 1024, got "100"/);
    expect(() => readServerConfig({ ALLOWED_ORIGINS: 'https://a.example, cdn.example.com' })).toThrow(/ALLOWED_ORIGINS: .* got "cdn\.example\.com"$/);
    expect(() => readServerConfig({ SIGNALS_SECRET: 'hunter2-hunter2' })).toThrow('got "15 characters"');
    expect(() => readServerConfig({ SIGNALS_SECRET: 'hunter2-hunter2' })).not.toThrow(/hunter2/);
  });

  test('blank values take the default; the build reads BODY_SIZE_LIMIT and ALLOWED_DOMAINS from the same place', () => {
    expect(readServerConfig({ BODY_SIZE_LIMIT: ' ', RATE_LIMIT_MAX: '' })).toMatchObject({ bodySizeLimit: 12 * 1024 * 1024, rateLimitMax: 30 });
    expect(readServerConfig({ BODY_SIZE_LIMIT: ' 2048 ' }).bodySizeLimit).toBe(2048);
    expect(readServerConfig({ ALLOWED_DOMAINS: 'vote.example.com, ,www.example.com' }).allowedDomains).toEqual(['vote.example.com', 'www.example.com']);
    expect(readFileSync('astro.config.mjs', 'utf8')).not.toMatch(/process\.env\.(BODY_SIZE_LIMIT|ALLOWED_DOMAINS)/);
  });

  test('ALLOWED_ORIGINS and TRUST_PROXY', () => {
    const config = readServerConfig({ ALLOWED_ORIGINS: 'https://a.example, https://b.example/', TRUST_PROXY: 'true' });
    expect(config.allowedOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.trustProxy).toBe(1);
    expect(readServerConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  test('Sentry: off without SENTRY_DSN; with it, its environment and release', () => {
    expect(readServerConfig({ SENTRY_ENVIRONMENT: 'production' }).sentry).toBeUndefined();
    const config = readServerConfig({ SENTRY_DSN: 'https://key@o0.ingest.sentry.io/42', SENTRY_ENVIRONMENT: 'production', SENTRY_RELEASE: 'peervote@1.0.0' });
    expect(config.sentry).toEqual({ dsn: 'https://key@o0.ingest.sentry.io/42', environment: 'production', release: 'peervote@1.0.0' });
  });
});

describe('workplaces', () => {
  test('names are grouped by case and spacing', () => {
    expect(workplaceKey('  St.   Mary\tHospital ')).toBe(workplaceKey('st. mary hospital'));
  });

  test('fewer than 3 ballots fold into Other, each shown by its most common spelling', () => {
    const counts = [
      { value: 'Lakeside', ballots: 2 },
      { value: 'lakeside ', ballots: 1 },
      { value: 'Hilltop', ballots: 2 },
      { value: 'other', ballots: 5 },
    ];
    expect(foldWorkplaces(counts, 1)).toEqual([
      { name: 'Lakeside', ballots: 3 },
      { name: 'Other', ballots: 8 },
    ]);
  });
});

test.each([
  [[0x25, 0x50, 0x44, 0x46, 0x2d, 0x31], 'application/pdf'],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'image/png'],
  [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
  [[0x4d, 0x5a, 0x90, 0x00], undefined],
])('a file starting %j is read as %s', async (bytes, type) => {
  // A field that takes every known type, so that only the first bytes decide.
  const accept = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];
  const field = { name: 'upload', label: 'Upload', type: 'file', validation: { accept } } as FieldDef;
  const file = new File([new Uint8Array(bytes)], 'upload.bin', { type: 'application/octet-stream' });
  const { problems, files } = await checkFileContents([{ field: 'upload', file }], new Map([['upload', field]]));
  expect(files.map((checked) => checked.type)).toEqual(type ? [type] : []);
  expect(problems).toHaveLength(type ? 0 : 1);
});

test('client address: the connection, or with TRUST_PROXY=n the n-th X-Forwarded-For entry from the right', () => {
  const request = new Request('http://x/', { headers: { 'x-forwarded-for': 'forged, 203.0.113.9, 10.0.0.2' } });
  expect(clientAddress(request, '127.0.0.1', { trustProxy: 0 })).toBe('127.0.0.1');
  expect(clientAddress(request, '127.0.0.1', { trustProxy: 1 })).toBe('10.0.0.2');
  expect(clientAddress(request, '127.0.0.1', { trustProxy: 2 })).toBe('203.0.113.9');
});

test.each([
  ['"abc-123"', 'abc-123'],
  ['abc', 'abc'],
  ['"with space"', 'invalid'],
  ['', 'invalid'],
])('Idempotency-Key %j reads as %j', (header, key) => {
  expect(readIdempotencyKey(new Request('http://x/', { headers: { 'Idempotency-Key': header } }))).toBe(key);
});

test('uuidv7 ids are UUIDs that sort by time', () => {
  const a = uuidv7(1_000);
  const b = uuidv7(2_000);
  expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(a < b).toBe(true);
});

test('uuidv7 ids made in one millisecond sort in the order they were made', () => {
  const ids = Array.from({ length: 200 }, () => uuidv7(5_000));
  expect([...ids].sort()).toEqual(ids);
  expect(new Set(ids).size).toBe(200);
});

test('a tile is known by its slug, or its title in dashed lower case', () => {
  expect(tileSlug({ title: 'When should a headache worry me?' })).toBe('when-should-a-headache-worry-me');
  expect(tileSlug({ title: 'Sports Medicine', slug: 'sports' })).toBe('sports');
});

describe('pages the API answers a browser with', () => {
  const request = (headers: Record<string, string>) => new Request('http://127.0.0.1/api/x', { headers });

  test.each<[string, Record<string, string>, boolean]>([
    ['a navigation', { 'Sec-Fetch-Mode': 'navigate', Accept: '*/*' }, true],
    ['a browser asking for HTML', { Accept: 'text/html,application/xhtml+xml' }, true],
    ["a page's script", { 'Sec-Fetch-Mode': 'cors', Accept: 'application/json' }, false],
    ['JSON first, HTML too', { Accept: 'application/json, text/html' }, false],
    ['no preference', {}, false],
  ])('%s wants a page: %s', (_, headers, page) => {
    expect(wantsPage(request(headers))).toBe(page);
  });

  test('a plain page escapes its texts, loads nothing and is never cached', async () => {
    const answer = plainPage({
      status: 422,
      site: 'A & B',
      title: '<b>x</b>',
      text: '"quoted"',
      html: '<p>ok</p>',
      headers: { 'Content-Type': 'application/json', 'Retry-After': '5' },
    });
    expect(answer.status).toBe(422);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(answer.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const html = await answer.text();
    expect(html).toContain('<h1>A &amp; B</h1></header><main><h2>&lt;b&gt;x&lt;/b&gt;</h2><p>&quot;quoted&quot;</p><p>ok</p>');
    expect(escapeHtml(`<'&">`)).toBe('&lt;&#39;&amp;&quot;&gt;');
  });
});

describe('JSON answers', () => {
  test('state their length in bytes, so the server sends them whole rather than in chunks', async () => {
    const answer = json(201, { message: 'Dr. Zoë Ångström — reçu' }, { 'Retry-After': '5' });
    const bytes = new Uint8Array(await answer.arrayBuffer());
    expect(answer.headers.get('Content-Length')).toBe(String(bytes.byteLength));
    expect(bytes.byteLength).toBeGreaterThan(JSON.stringify({ message: 'Dr. Zoë Ångström — reçu' }).length);
    expect(answer.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('Retry-After')).toBe('5');
  });
});
