import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redirectRules } from '../../../src/integrations/static-host-rules.ts';
import { matchRule, parseRules } from '../../../bin/static-rules.mjs';

const client = mkdtempSync(path.join(tmpdir(), 'peervote-client-'));
mkdirSync(path.join(client, 'demo', 'thankyou'), { recursive: true });
writeFileSync(path.join(client, 'index.html'), '');
writeFileSync(path.join(client, 'demo', 'index.html'), '');
writeFileSync(path.join(client, 'demo', 'thankyou', 'index.html'), '');
mkdirSync(path.join(client, 'published', 'results'), { recursive: true });
writeFileSync(path.join(client, 'published', 'results', 'index.html'), '');
const rules = parseRules(redirectRules(['demo', 'published'], 'demo'));

describe('the static host rules', () => {
  it.each([
    ['/', { redirect: '/demo/', status: 302 }],
    ['/index.html', { redirect: '/', status: 301 }],
    ['/demo/index.html', { redirect: '/demo/', status: 301 }],
    ['/demo/s3cr3t', { rewrite: '/demo/personal-link/' }],
    ['/demo/s3cr3t/', { rewrite: '/demo/personal-link/' }],
    ['/demo/thankyou', undefined],
    // "results" is never a secret: the not-found page until results are published, then the page.
    ['/demo/results', { notFound: true }],
    ['/demo/results/', { notFound: true }],
    ['/published/results/', undefined],
    ['/published/s3cr3t', { rewrite: '/published/personal-link/' }],
    ['/demo/', undefined],
    ['/demo/a/b', undefined],
    ['/elsewhere/s3cr3t', undefined],
  ])('%s', (pathname, action) => {
    expect(matchRule(rules, pathname, client)).toEqual(action);
  });
});
