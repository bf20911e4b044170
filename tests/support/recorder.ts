import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a recording server saw it. */
export interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** An HTTP server on 127.0.0.1, on a free port the system picks, that records every request and answers what `answer` says. */
export async function startRecorder(answer: (request: Recorded) => { status?: number; body: unknown }) {
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    requests,
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
