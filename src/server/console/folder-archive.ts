import { open, readdir, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';

// A folder's files as a .tar.gz (POSIX ustar), streamed: each file is read as the archive is
// sent, so memory holds a chunk, whatever the ledger's size. The files are opened before the
// first byte goes, so a publication that replaces the folder meanwhile (a rename) leaves the
// archive whole, of the folder as it was.

/** A tar block. */
const BLOCK = 512;

/** A ustar header for a regular file: its name (within 100 bytes), size and time. */
function header(name: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  const octal = (value: number, width: number) =>
    `${Math.floor(value)
      .toString(8)
      .padStart(width - 1, '0')}\0`;
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100);
  block.write(octal(0, 8), 108);
  block.write(octal(0, 8), 116);
  block.write(octal(size, 12), 124);
  block.write(octal(mtime.getTime() / 1000, 12), 136);
  block.write('        ', 148);
  block.write('0', 156);
  block.write('ustar\u000000', 257);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** The archive's bytes: each file's header, its contents and their padding, then two empty blocks. */
async function* tarOf(files: ReadonlyArray<{ name: string; handle: FileHandle; size: number; mtime: Date }>): AsyncGenerator<Buffer> {
  try {
    for (const file of files) {
      yield header(file.name, file.size, file.mtime);
      let sent = 0;
      for await (const chunk of file.handle.createReadStream({ start: 0, end: Math.max(0, file.size - 1), autoClose: false })) {
        if (file.size === 0) break;
        sent += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
      if (sent !== file.size) throw new Error(`${file.name} changed while it was archived.`);
      if (file.size % BLOCK) yield Buffer.alloc(BLOCK - (file.size % BLOCK));
    }
    yield Buffer.alloc(2 * BLOCK);
  } finally {
    await Promise.all(files.map((file) => file.handle.close().catch(() => undefined)));
  }
}

/**
 * The regular files of `folder` as a gzipped tar under `prefix/`, in name order, as a stream for
 * a Response; undefined when the folder does not exist.
 */
export async function folderArchive(folder: string, prefix: string): Promise<ReadableStream<Uint8Array> | undefined> {
  let names: string[];
  try {
    names = (await readdir(folder, { withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return undefined;
  }
  const files = [];
  try {
    for (const name of names) {
      const handle = await open(path.join(folder, name), 'r');
      files.push({ name: `${prefix}/${name}`, handle, ...(await handle.stat().then((stat) => ({ size: stat.size, mtime: stat.mtime }))) });
    }
  } catch {
    await Promise.all(files.map((file) => file.handle.close().catch(() => undefined)));
    return undefined;
  }
  const gzip = createGzip();
  // A file that fails mid-way ends the download with an error, never a short archive that looks whole.
  pipeline(Readable.from(tarOf(files)), gzip, () => undefined);
  return Readable.toWeb(gzip) as ReadableStream<Uint8Array>;
}
