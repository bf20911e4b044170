import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedPath, resolveFile } from '../../../bin/static-files.mjs';

const root = mkdtempSync(path.join(tmpdir(), 'peervote-files-'));
const client = path.join(root, 'client');
mkdirSync(path.join(client, 'demo'), { recursive: true });
writeFileSync(path.join(client, 'demo', 'index.html'), '');
// A sibling whose name starts like the served folder: a prefix check alone would let it through.
mkdirSync(path.join(root, 'client-private'));
writeFileSync(path.join(root, 'client-private', 'secret.txt'), '');
writeFileSync(path.join(root, 'entry.mjs'), '');

describe('paths the file server refuses', () => {
  it.each([
    '/../entry.mjs',
    '/demo/../../entry.mjs',
    '/%2e%2e/entry.mjs',
    '/%2E%2E%2fentry.mjs',
    '/./demo/',
    '/demo/%00',
    '/..\\entry.mjs',
    '/%5c..%5centry.mjs',
    '/%zz',
    '/demo/..?x=1',
    '/demo\\x',
    '/demo/\0',
  ])('%s', (target) => {
    expect(refusedPath(target)).toBeTruthy();
  });

  it.each(['/', '/demo/', '/demo/index.html', '/_astro/app.B1x-2_.js', '/demo/s3cr3t?next=/../x', '/demo/a..b', '/demo/%20name'])(
    'lets %s through',
    (target) => {
      expect(refusedPath(target)).toBeUndefined();
    },
  );
});

describe('the built file a path names', () => {
  it('is the file or its folder index, never one outside the folder', () => {
    expect(resolveFile(client, '/demo/')).toBe(path.join(client, 'demo', 'index.html'));
    expect(resolveFile(client, '/demo/index.html')).toBe(path.join(client, 'demo', 'index.html'));
    expect(resolveFile(client, '/demo/nothing')).toBeUndefined();
    expect(resolveFile(client, '/../client-private/secret.txt')).toBeUndefined();
    expect(resolveFile(client, '/%2e%2e/entry.mjs')).toBeUndefined();
  });
});
