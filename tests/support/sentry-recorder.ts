import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One item of a Sentry envelope: its header and its payload (parsed when JSON). */
interface EnvelopeItem {
  header: { type: string; length?: number; filename?: string; content_type?: string; [key: string]: unknown };
  payload: any;
}

/** One envelope as Sentry's ingest endpoint would receive it. */
export interface Envelope {
  path: string;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

/**
 * Parses Sentry's envelope format: a header line, then per item a header line and a payload
 * of `length` bytes (or up to the next newline when the header gives no length).
 */
function parseEnvelope(body: Buffer, path = ''): Envelope {
  let at = 0;
  const line = () => {
    const end = body.indexOf(0x0a, at);
    const text = body.subarray(at, end === -1 ? body.length : end).toString('utf8');
    at = end === -1 ? body.length : end + 1;
    return text;
  };
  const header = JSON.parse(line());
  const items: EnvelopeItem[] = [];
  while (at < body.length) {
    const itemLine = line();
    if (!itemLine.trim()) continue;
    const itemHeader = JSON.parse(itemLine);
    let raw: string;
    if (typeof itemHeader.length === 'number') {
      raw = body.subarray(at, at + itemHeader.length).toString('utf8');
      at += itemHeader.length;
      if (body[at] === 0x0a) at++;
    } else {
      raw = line();
    }
    let payload: unknown = raw;
    try {
      payload = JSON.parse(raw);
    } catch {
      // Not JSON: an attachment of another type keeps its text.
    }
    items.push({ header: itemHeader, payload });
  }
  return { path, header, items };
}

/** Listens on the first free port of `from`…`from + 19`: parallel test files each get their own. */
async function listenFrom(server: http.Server, from: number): Promise<number> {
  for (let port = from; port < from + 20; port++) {
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) return (server.address() as AddressInfo).port;
  }
  throw new Error(`no free port in ${from}-${from + 19}`);
}

/**
 * A stand-in for Sentry's ingest on 127.0.0.1, on the first free port from `fromPort`: records
 * every envelope posted to it (with CORS, as a browser's SDK needs) and answers 200. Its `dsn`
 * is what the SDK is configured with.
 */
export async function startSentryRecorder(fromPort: number) {
  const envelopes: Envelope[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', '*');
      if (req.method === 'POST') {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        envelopes.push(parseEnvelope(body, req.url ?? ''));
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  const port = await listenFrom(server, fromPort);
  return {
    port,
    envelopes,
    dsn: `http://publickey@127.0.0.1:${port}/42`,
    /** The error events received, with their attachments. */
    events: () =>
      envelopes.flatMap((envelope) => {
        const event = envelope.items.find((item) => item.header.type === 'event');
        return event ? [{ event: event.payload, attachments: envelope.items.filter((item) => item.header.type === 'attachment') }] : [];
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
