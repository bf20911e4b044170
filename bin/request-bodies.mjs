// How bin/serve.mjs hands a request's body to the survey API. A body of up to 1 MiB (within
// BODY_SIZE_LIMIT) that says its length is read here whole and given to Astro as one buffer: no
// stream for Astro and undici to pull chunk by chunk, the costliest part of a ballot's trip
// through the adapter; a ballot without files and a search are a few kilobytes. Any other body
// is streamed as the API reads it, and when the API answers before reading it to its end
// (413 for a body past the limit), the rest is read and thrown away before the answer ends, up
// to a bound of bytes and time: a server that closes a socket with unread bytes in it resets
// the connection, and the client, still sending, never reads its 413.

/** The largest body read whole before the API runs: larger ones (ballots with files) are streamed, so that no more is held than the API reads. */
const WHOLE_BODY_MAX = 1024 * 1024;
/** A client that sends more than this many bytes after its answer was ready is cut off: how many times BODY_SIZE_LIMIT. */
const DRAIN_FACTOR = 4;
/** …or that takes longer than this to send the rest. */
const DRAIN_MS = 10_000;

/** True for a request that carries a body: one with a length or sent in chunks. */
function hasBody(req) {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Holds the end of `res` until the rest of `req`'s body has been read and thrown away, when the
 * answer is ready before the body was read to its end; past the bound, the connection is cut.
 * A body that says it is longer than the bound is not waited for: the answer goes at once.
 */
function answerAfterBody(req, res, limit) {
  const bound = DRAIN_FACTOR * limit;
  if (Number(req.headers['content-length'] ?? 0) > bound) return;
  const end = res.end;
  res.end = function endAfterBody(...args) {
    res.end = end;
    if (req.complete || req.destroyed) return end.apply(res, args);
    let left = bound;
    const cut = () => req.socket?.destroy();
    const timer = setTimeout(cut, DRAIN_MS);
    req.on('data', (chunk) => {
      left -= chunk.length;
      if (left < 0) {
        clearTimeout(timer);
        cut();
      }
    });
    req.once('end', () => {
      clearTimeout(timer);
      end.apply(res, args);
    });
    req.once('close', () => clearTimeout(timer));
    req.resume();
    return res;
  };
}

/**
 * Runs `next` with `req.body` set for Astro's Node adapter: the whole body as a buffer when its
 * Content-Length is within `limit` and WHOLE_BODY_MAX (read first), else a stream of it that the API may stop
 * reading without the connection being reset (see answerAfterBody). A request without a body
 * goes on as it is.
 * @param {import('node:http').IncomingMessage & { body?: unknown }} req
 * @param {import('node:http').ServerResponse} res
 * @param {number} limit BODY_SIZE_LIMIT, in bytes
 * @param {() => void} next
 */
export function withBody(req, res, limit, next) {
  if (!hasBody(req)) return next();
  const length = req.headers['content-length'];
  if (length !== undefined && Number(length) <= Math.min(limit, WHOLE_BODY_MAX)) {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
    });
    req.once('end', () => {
      // A body that came in one chunk, as a ballot mostly does, is used as it is, not copied.
      req.body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      next();
    });
    // A client gone mid-body has no one to answer: the request is dropped, nothing reaches the API.
    req.on('error', () => {});
    return;
  }
  // Astro's adapter streams an async iterable `req.body` (one with no own enumerable keys, which
  // it would take for JSON); stopping early must not destroy the request, and its socket with it.
  req.body = { [Symbol.asyncIterator]: () => req.iterator({ destroyOnReturn: false }) };
  answerAfterBody(req, res, limit);
  next();
}
