// The voters of the national benchmark: each sends one ballot, from the page's outbox as it
// would, under its own Idempotency-Key, to one of the API processes; when that process fails it
// (a reset connection, a refused one, a 5xx, 409 `request_in_progress`, 429), it sends the same
// ballot under the same key again, to the other process once one has gone, after a wait that
// grows, until it is acknowledged (201, or 200 `Idempotent-Replayed`).
import http from 'node:http';
import { demoBallotFields, multipart } from '../../support/ballots.mjs';

/** How long a voter keeps trying before it gives up (the page's outbox keeps a ballot for days; a benchmark cannot). */
const GIVE_UP_MS = 5 * 60_000;

/**
 * The fields of voter `n`'s ballot: the demo ballot, its eight nominations drawn from `ids` (the
 * 100,000-nominee list).
 * @param {number} n
 * @param {string[]} ids
 */
function ballotFields(n, ids) {
  return demoBallotFields(n, (voter, i, slot) =>
    slot === 1 ? ids[(voter * 7919 + i * 104_729) % ids.length] : ids[(voter * 15_485_863 + i * 32_452_843 + 1) % ids.length],
  );
}

/** One POST of a ballot: its status and body, or status 0 when the connection failed. */
function send(server, body, contentType, key) {
  return new Promise((resolve) => {
    const req = http.request(
      `${server.url}/api/survey?project_id=top-doctors-demo&project_type=form`,
      {
        method: 'POST',
        agent: server.agent,
        headers: { Origin: server.url, 'Content-Type': contentType, 'Content-Length': body.length, 'Idempotency-Key': `"${key}"` },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), replayed: res.headers['idempotent-replayed'] === 'true' }),
        );
        res.on('error', () => resolve({ status: 0, text: 'response cut' }));
      },
    );
    req.on('error', (error) => resolve({ status: 0, text: error.message }));
    req.end(body);
  });
}

/** Statuses after which the outbox sends the same ballot again. */
const RETRIED = new Set([0, 409, 429, 500, 502, 503, 504]);

/**
 * Voter `n` sends its ballot until it is acknowledged: resolves with the ballot id and the time
 * from the first send to the acknowledgement, or with the last failure when it gave up or was
 * refused for good (a 4xx no retry can change).
 * @param {{ n: number, ids: string[], servers: Array<{ url: string, agent: http.Agent, alive: boolean }>, tally: { retries: number, replayed: number, causes: Map<string, number> } }} voter
 */
export async function vote({ n, ids, servers, tally }) {
  const { body, contentType } = multipart(ballotFields(n, ids));
  const key = `national-${n}`;
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    const living = servers.filter((server) => server.alive);
    const server = living[(n + attempt) % living.length];
    const answer = await send(server, body, contentType, key);
    if (answer.status === 201 || (answer.status === 200 && answer.replayed)) {
      if (answer.replayed) tally.replayed++;
      return { id: JSON.parse(answer.text).ballot_id, ms: performance.now() - started };
    }
    if (!RETRIED.has(answer.status) || performance.now() - started > GIVE_UP_MS) return { failure: `${answer.status} ${answer.text.slice(0, 100)}` };
    tally.retries++;
    const cause = answer.status ? `${answer.status} ${JSON.parse(answer.text || '{}').error ?? ''}`.trim() : answer.text;
    tally.causes.set(cause, (tally.causes.get(cause) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** Math.min(attempt, 6)) * (0.5 + Math.random())));
  }
}
