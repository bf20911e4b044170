// The same ballot intake as the Astro endpoint, behind a bare node:http handler: the ingest
// benchmark measures both, so that what Astro adds shows as a ratio. Node 24 runs its
// TypeScript as it is, stripping the types.
import http from 'node:http';
import { receiveBallot } from '../../src/server/intake/ballot-intake.ts';
import { jsonReply } from '../../src/server/intake/ballot-post.ts';
import { database } from '../../src/server/db/database.ts';

const port = Number(process.env.PORT ?? 4499);
const host = process.env.HOST ?? '127.0.0.1';

const server = http.createServer(async (req, res) => {
  try {
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.method === 'POST' ? (req as unknown as ReadableStream) : undefined,
      duplex: 'half',
    } as RequestInit);
    const response = jsonReply(await receiveBallot(request, req.socket.remoteAddress));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    console.error(error);
    res.writeHead(500).end();
  }
});

await database();
server.listen(port, host, () => console.log(`Minimal intake is running at http://${host}:${port}/`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
