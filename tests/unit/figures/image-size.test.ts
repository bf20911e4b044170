import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localImageBytes, localImageDataUrl, localImageSize } from '../../../src/components/image-size.ts';

const dir = mkdtempSync(join(tmpdir(), 'peervote-images-'));
writeFileSync(join(dir, 'sized.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120"></svg>');
writeFileSync(join(dir, 'boxed.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 240"></svg>');
writeFileSync(join(dir, 'dot.png'), Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex'));

describe('image sizes read at build time, so pages keep their place while images load', () => {
  it.each([
    ['an SVG with width and height', '/sized.svg', { width: 600, height: 120 }],
    ['an SVG with a viewBox only', '/boxed.svg', { width: 800, height: 240 }],
    ['a PNG', '/dot.png', { width: 3, height: 2 }],
    ['a missing file', '/none.svg', undefined],
    ['an image elsewhere', 'https://cdn.example.org/logo.svg', undefined],
    ['a path out of public/', '/../secret.svg', undefined],
  ])('%s', (_, url, size) => {
    expect(localImageSize(url, dir)).toEqual(size);
  });

  it('reads the demo survey’s own images', () => {
    expect(localImageSize('/media/ad-community-clinic.svg')).toEqual({ width: 600, height: 120 });
  });

  it.each([
    ['a file', '/boxed.svg', 68],
    ['a missing file', '/none.svg', undefined],
    ['an image elsewhere', 'https://cdn.example.org/logo.svg', undefined],
    ['a path out of public/', '/../secret.svg', undefined],
  ])('the bytes of %s', (_, url, bytes) => {
    expect(localImageBytes(url, dir)).toBe(bytes);
  });

  it.each([
    [
      'an SVG within the limit, as text',
      '/boxed.svg',
      68,
      `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 240"></svg>')}`,
    ],
    [
      'a PNG within the limit, in base64',
      '/dot.png',
      100,
      `data:image/png;base64,${Buffer.from('89504e470d0a1a0a0000000d4948445200000003000000020806000000', 'hex').toString('base64')}`,
    ],
    ['a file over the limit', '/boxed.svg', 67, undefined],
    ['a missing file', '/none.svg', 1000, undefined],
    ['an image elsewhere', 'https://cdn.example.org/logo.svg', 1000, undefined],
    ['a path out of public/', '/../secret.svg', 1000, undefined],
  ])('%s as a data: address', (_, url, maxBytes, data) => {
    expect(localImageDataUrl(url, maxBytes, dir)).toBe(data);
  });
});
