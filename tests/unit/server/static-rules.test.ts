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
const rules = parseRules(redirectRules(['demo'], 'demo'));

describe('the static host rules', () => {
  it.each([
    ['/', { redirect: '/demo/', status: 302 }],
    ['/index.html', { redirect: '/', status: 301 }],
    ['/demo/index.html', { redirect: '/demo/', status: 301 }],
    ['/demo/s3cr3t', { rewrite: '/demo/personal-link/' }],
    ['/demo/s3cr3t/', { rewrite: '/demo/personal-link/' }],
    ['/demo/thankyou', undefined],
    ['/demo/', undefined],
    ['/demo/a/b', undefined],
    ['/elsewhere/s3cr3t', undefined],
  ])('%s', (pathname, action) => {
    expect(matchRule(rules, pathname, client)).toEqual(action);
  });
});
