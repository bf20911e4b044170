import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedPath, requestTarget, resolveFile } from '../../../bin/static-files.mjs';

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

describe('a request target as the server reads it', () => {
  /** What a URL parser makes of the target, and what refusedPath says of it: what requestTarget must give, parsing or not. */
  const parsed = (target: string) => {
    const url = URL.parse(target, 'http://localhost');
    if (!url) return { pathname: '/', search: '', refused: 'the address does not parse' };
    return { pathname: url.pathname, search: url.search, refused: refusedPath(target) };
  };

  it.each([
    '/',
    '/api/survey?project_id=top-doctors-demo&project_type=form&sheet=bench',
    '/top-doctors-demo/',
    '/top-doctors-demo/s3cr3t-Link_9',
    '/api/survey/link/top-doctors-demo?secret=abc%00',
    '/a//b?x=1',
    '/x?',
    '/x??y=1',
    "/x?q='quoted'",
    '/x?q="quoted"',
    '/x?q=a b',
    '/x?q=<script>',
    '/x?q=caf\u00e9',
    '/x#fragment',
    '//evil.example/path',
    '/demo/../../entry.mjs',
    '/%2e%2e/entry.mjs',
    '/demo/a..b',
    '/demo/./x',
    '/demo\\x',
    '/Ünïcode/path',
    '/demo/%20name',
    '/tab\there',
    '/\\',
    '/\\\\x',
  ])('%s', (target) => {
    expect(requestTarget(target)).toEqual(parsed(target));
  });

  it('reads every target of plain characters as a URL parser does', () => {
    const alphabet = 'aZ09-_/.~!$&()*+,;=:@?%\'" <>#';
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 5000; n++) {
      const length = next() % 12;
      const target = `/${Array.from({ length }, () => alphabet[next() % alphabet.length]).join('')}`;
      expect(requestTarget(target), target).toEqual(parsed(target));
    }
  });
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
