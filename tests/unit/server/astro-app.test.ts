import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appHandler } from '../../../bin/astro-app.mjs';

/** The `_headers` headers of an address as bin/serve.mjs hands them over: a policy named twice is sent twice. */
const ADDRESS_HEADERS: Array<[string, string]> = [
  ['X-Frame-Options', 'DENY'],
  ['Content-Security-Policy', "default-src 'self'"],
  ['Content-Security-Policy', "frame-ancestors 'none'"],
  ['Cache-Control', 'public, max-age=60'],
];

/** An App whose every request is an on-demand endpoint answered by `render`. */
function fakeApp(render: (request: Request) => Promise<Response>) {
  return { match: () => ({ type: 'endpoint', prerender: false }), render };
}

let server: http.Server | undefined;
afterEach(() => server?.close());

/** Serves `app` through appHandler with the address headers above; resolves with the raw answer to one GET. */
async function answer(app: ReturnType<typeof fakeApp>, target = '/api/survey?secret=abc123') {
  const handler = appHandler(app, '/nonexistent');
  server = http.createServer((req, res) => handler(req, res, ADDRESS_HEADERS));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; raw: string[]; body: string }>((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${port}${target}`, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, raw: res.rawHeaders, body }));
      })
      .on('error', reject);
  });
}

/** Every value sent under `name`, in order. */
function sent(raw: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === name) out.push(raw[i + 1]);
  return out;
}

describe("the API's answer from a whole body (bin/astro-app.mjs)", () => {
  it("sends the address's headers beside Astro's, each of Astro's in place of the address's by that name", async () => {
    const app = fakeApp(async () => new Response('{"ok":true}', { status: 201, headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' } }));
    const { status, raw, body } = await answer(app);
    expect(status).toBe(201);
    expect(body).toBe('{"ok":true}');
    expect(sent(raw, 'x-frame-options')).toEqual(['DENY']);
    expect(sent(raw, 'content-security-policy')).toEqual(["default-src 'self'", "frame-ancestors 'none'"]);
    expect(sent(raw, 'cache-control')).toEqual(['no-store']);
    expect(sent(raw, 'content-type')).toEqual(['application/json']);
  });

  it("answers 500 in the API's error shape when Astro itself fails, with the address's headers, logging the path without its query", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = fakeApp(async () => {
      throw new Error('render failed');
    });
    const { status, raw, body } = await answer(app);
    expect(status).toBe(500);
    expect(JSON.parse(body)).toMatchObject({ error: 'server_error' });
    expect(sent(raw, 'cache-control')).toEqual(['no-store']);
    expect(sent(raw, 'x-frame-options')).toEqual(['DENY']);
    expect(log).toHaveBeenCalledOnce();
    expect(String(log.mock.calls[0][0])).toContain('GET /api/survey:');
    expect(String(log.mock.calls[0][0])).not.toContain('abc123');
    log.mockRestore();
  });
});
