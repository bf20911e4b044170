import { createHash } from 'node:crypto';
import { nulProblems, stripStrayControls } from '../../survey/ballots/control-characters.ts';
import type { Problem } from '../../survey/errors.ts';

/**
 * Reads a request body up to `limit` bytes and stops reading at once past it, so an oversized
 * body never sits in memory whole. Returns the bytes, or 'too-large'.
 */
export async function readLimited(request: Request, limit: number): Promise<Uint8Array | 'too-large'> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        return 'too-large';
      }
      chunks.push(value);
    }
  } catch (error) {
    // The Node adapter's own limit (BODY_SIZE_LIMIT at build time) ends the stream with an error.
    if (error instanceof Error && /size limit/i.test(error.message)) return 'too-large';
    throw error;
  }
  return Buffer.concat(chunks, total);
}

/**
 * The form with stray control characters taken out of every value and file name, or the
 * problems of the parts that hold a NUL character (named by their form-data name), which
 * refuse the whole request: one rule on both databases (docs/api.md, "Text").
 */
function cleanForm(form: FormData): FormData | Problem[] {
  const problems = nulProblems([...form.entries()].map(([name, value]) => [name, `${name}${typeof value === 'string' ? value : value.name}`] as const));
  if (problems.length) return problems;
  const clean = new FormData();
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') clean.append(stripStrayControls(name), stripStrayControls(value));
    else clean.append(stripStrayControls(name), value, stripStrayControls(value.name));
  }
  return clean;
}

/**
 * Parses a multipart/form-data body into its parts, cleaned; 'malformed' for a body that is not
 * one, and the problems of the parts that hold a NUL character.
 */
export async function parseMultipart(body: Uint8Array, contentType: string): Promise<FormData | 'malformed' | Problem[]> {
  let form: FormData;
  try {
    form = await new Response(body as BodyInit, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return 'malformed';
  }
  return cleanForm(form);
}

/**
 * A digest of what a request asks for: its query and its parts, sorted by name, files by their
 * content. A retry that sends the same ballot matches even though a browser picks a new
 * multipart boundary each time.
 */
export async function fingerprint(query: URLSearchParams, form: FormData): Promise<string> {
  const hash = createHash('sha256');
  const params = [...query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  hash.update(JSON.stringify(params));
  const entries = [...form.entries()].map(([name, value], order) => ({ name, value, order }));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.order - b.order));
  for (const { name, value } of entries) {
    if (typeof value === 'string') {
      hash.update(JSON.stringify([name, value]));
    } else {
      const content = createHash('sha256')
        .update(new Uint8Array(await value.arrayBuffer()))
        .digest('hex');
      hash.update(JSON.stringify([name, value.name, value.type, value.size, content]));
    }
  }
  return hash.digest('hex');
}
