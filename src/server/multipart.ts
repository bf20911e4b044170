import { createHash } from 'node:crypto';
import { formDataToBallot, type BallotInput } from '../survey/ballot-input.ts';

/** Why a body could not be read: larger than the limit, or not well-formed multipart. */
export type BodyFailure = 'too-large' | 'malformed';

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

/** Parses a multipart/form-data body into a ballot; 'malformed' for a body that is not one. */
export async function parseMultipart(body: Uint8Array, contentType: string): Promise<{ ballot: BallotInput; form: FormData } | 'malformed'> {
  try {
    const form = await new Response(body as BodyInit, { headers: { 'Content-Type': contentType } }).formData();
    return { ballot: formDataToBallot(form), form };
  } catch {
    return 'malformed';
  }
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
      const content = createHash('sha256').update(new Uint8Array(await value.arrayBuffer())).digest('hex');
      hash.update(JSON.stringify([name, value.name, value.type, value.size, content]));
    }
  }
  return hash.digest('hex');
}
