// Serves built files itself when the browser accepts a precompressed copy (Brotli, then
// gzip), with caching headers: hashed assets for a year, everything else revalidated.
import { createReadStream, existsSync, statSync } from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
};

/**
 * The built file a path names (the file itself, or its folder's index.html), or undefined.
 * @param {string} clientDir
 * @param {string} pathname
 */
export function resolveFile(clientDir, pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const file = path.join(clientDir, path.normalize(decoded));
  if (!file.startsWith(clientDir)) return undefined;
  for (const candidate of [file, path.join(file, 'index.html')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Sends a precompressed copy of a built file when there is one the browser accepts; returns
 * false to leave the request to the next handler.
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} clientDir
 * @param {string} pathname
 */
export function sendCompressed(req, res, clientDir, pathname) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const file = resolveFile(clientDir, pathname);
  const type = file && TYPES[path.extname(file)];
  if (!file || !type) return false;
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const encoding = ['br', 'gzip'].find((name) => new RegExp(`\\b${name}\\b`).test(accepted) && existsSync(`${file}.${name === 'br' ? 'br' : 'gz'}`));
  if (!encoding) return false;
  const compressed = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
  const stats = statSync(compressed);
  const immutable = pathname.startsWith('/_astro/');
  const etag = `"${encoding}-${stats.size.toString(36)}-${stats.mtimeMs.toString(36)}"`;
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
  res.setHeader('ETag', etag);
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304).end();
    return true;
  }
  res.writeHead(200, { 'Content-Type': type, 'Content-Encoding': encoding, 'Content-Length': stats.size });
  if (req.method === 'HEAD') res.end();
  else createReadStream(compressed).pipe(res);
  return true;
}
