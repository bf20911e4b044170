import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a recording server saw it. */
export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** An HTTP server on 127.0.0.1 that records every request and answers what `answer` says. */
export async function startRecorder(port: number, answer: (request: Recorded) => { status?: number; body: unknown }) {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const recorded: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined };
      requests.push(recorded);
      const { status = 200, body } = answer(recorded);
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    requests,
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first of the recorders' ports: PEERVOTE_RECORDER_PORT, else 4521 (this workspace gives tests 4500-4599). */
const FIRST = Number(process.env.PEERVOTE_RECORDER_PORT) || 4521;

/** Test servers' ports; each test file takes its own. */
export const PORTS = { localSearch: FIRST, algoliaSearch: FIRST + 1, algoliaSync: FIRST + 2 } as const;
