import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { folderArchive } from '../../../src/server/console/folder-archive.ts';

// The published folder as the console's download streams it: a .tar.gz that tar unpacks into the
// same files, to the byte, whatever their sizes against tar's 512-byte blocks.

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'peervote-archive-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Reads a stream whole. */
async function bytes(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('folderArchive', () => {
  test('tar unpacks the files as they are: empty, a block exactly, past a block, a large one, a name beyond ASCII', async () => {
    const source = folder();
    const files: Record<string, Buffer> = {
      'empty.txt': Buffer.alloc(0),
      'block.json': Buffer.alloc(512, 'a'),
      'ledger.jsonl': Buffer.from(`${'{"n":1}\n'.repeat(125)}x`),
      'large.bin': Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31) % 251)),
      'méthodologie.md': Buffer.from('# How the votes are counted\n'),
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(source, name), content);
    mkdirSync(path.join(source, 'a-folder'));
    const archive = await folderArchive(source, 'results');
    expect(archive).toBeDefined();
    const out = folder();
    writeFileSync(path.join(out, 'results.tar.gz'), await bytes(archive!));
    execFileSync('tar', ['-xzf', 'results.tar.gz'], { cwd: out });
    expect(readdirSync(path.join(out, 'results')).sort()).toEqual(Object.keys(files).sort());
    for (const [name, content] of Object.entries(files)) expect(readFileSync(path.join(out, 'results', name)).equals(content), name).toBe(true);
  });

  test('a folder that is not there gives no archive', async () => {
    expect(await folderArchive(path.join(folder(), 'results'), 'results')).toBeUndefined();
  });
});
