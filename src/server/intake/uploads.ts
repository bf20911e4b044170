import { randomUUID } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FieldDef } from '../../survey/config/field.struct.ts';
import type { Problem } from '../../survey/errors.ts';
import type { FilePart } from '../../survey/ballots/ballot-parts.ts';
import { acceptedTypes, describeTypes } from '../../survey/ballots/file-rules.ts';

/** The file types whose first bytes we know, with those bytes. */
const SIGNATURES: Array<{ type: string; extension: string; test: (head: Uint8Array) => boolean }> = [
  { type: 'application/pdf', extension: 'pdf', test: (h) => startsWith(h, [0x25, 0x50, 0x44, 0x46, 0x2d]) },
  { type: 'image/png', extension: 'png', test: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', extension: 'jpg', test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', extension: 'gif', test: (h) => startsWith(h, [0x47, 0x49, 0x46, 0x38]) },
  { type: 'image/webp', extension: 'webp', test: (h) => startsWith(h, [0x52, 0x49, 0x46, 0x46]) && startsWith(h.subarray(8), [0x57, 0x45, 0x42, 0x50]) },
];

function startsWith(head: Uint8Array, bytes: number[]): boolean {
  return bytes.every((byte, i) => head[i] === byte);
}

/** The type a file's content shows, from its first bytes; undefined when it is none we know. */
function sniffType(head: Uint8Array): { type: string; extension: string } | undefined {
  return SIGNATURES.find((signature) => signature.test(head));
}

/** A file that passed its checks, with the type its content shows. */
export interface CheckedFile extends FilePart<File> {
  type: string;
  extension: string;
}

/**
 * Checks each file's content against its field's accepted types: the name and the declared
 * type are the sender's to choose, the first bytes are not. Returns the problems, or the files.
 */
export async function checkFileContents(files: Array<FilePart<File>>, fields: Map<string, FieldDef>): Promise<{ problems: Problem[]; files: CheckedFile[] }> {
  const problems: Problem[] = [];
  const checked: CheckedFile[] = [];
  for (const part of files) {
    const field = fields.get(part.field)!;
    const accept = acceptedTypes(field);
    const sniffed = sniffType(new Uint8Array(await part.file.slice(0, 16).arrayBuffer()));
    if (!sniffed || !accept.includes(sniffed.type)) {
      problems.push({ path: part.field, message: field.validation?.message ?? `${field.name}: the file's content is not ${describeTypes(accept)}.` });
    } else {
      checked.push({ ...part, ...sniffed });
    }
  }
  return { problems, files: checked };
}

/** A file written to the uploads folder, under a random name. */
export interface StoredFile {
  id: string;
  field: string;
  originalName: string;
  contentType: string;
  size: number;
}

/** Writes files under random names in the uploads folder (outside the web root; readable by the owner only). */
export async function storeFiles(dir: string, files: CheckedFile[]): Promise<StoredFile[]> {
  if (files.length === 0) return [];
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stored: StoredFile[] = [];
  try {
    for (const part of files) {
      const id = `${randomUUID()}.${part.extension}`;
      await writeFile(path.join(dir, id), new Uint8Array(await part.file.arrayBuffer()), { flag: 'wx', mode: 0o600 });
      stored.push({ id, field: part.field, originalName: part.file.name.slice(0, 255), contentType: part.type, size: part.file.size });
    }
  } catch (error) {
    await removeFiles(dir, stored);
    throw error;
  }
  return stored;
}

/** Removes files whose ballot was not stored. */
export async function removeFiles(dir: string, files: StoredFile[]): Promise<void> {
  await Promise.all(files.map((file) => unlink(path.join(dir, file.id)).catch(() => {})));
}
