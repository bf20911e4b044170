// A real SMTP server for the tests, on a free port of the test range (PEERVOTE_TEST_PORTS): it
// keeps every message it accepts, parsed by mailparser, and answers recipients as the test's
// `answer` says (a 550, a 421…).
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { listenInRange } from './server.mjs';

/** One message the server accepted: its envelope and the parsed message. */
interface Received {
  from: string;
  to: string[];
  mail: ParsedMail;
  raw: string;
}

/** What the server says to one RCPT TO: nothing accepts it, else an SMTP code and text. */
export type RcptAnswer = (address: string, attempt: number) => { code: number; message: string } | undefined;

/** A running test SMTP server. */
export interface TestSmtp {
  port: number;
  url: string;
  received: Received[];
  /** RCPT TO attempts per address: when each arrived (Date.now()), in order. */
  attempts: Map<string, number[]>;
  answer: RcptAnswer;
  /**
   * Once this many messages are accepted (0: from the first), the next are read but never
   * answered: the sender waits with them in flight.
   */
  holdAfter: number;
  /** Messages held unanswered so far. */
  held: number;
  /** Resolves once `count` messages are held. */
  waitForHeld(count: number): Promise<void>;
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** Starts an SMTP server on a free port of the test range (no TLS, any login accepted). */
export async function startSmtp(answer: RcptAnswer = () => undefined): Promise<TestSmtp> {
  const received: Received[] = [];
  const attempts = new Map<string, number[]>();
  const waiters: Array<() => boolean> = [];
  // Counted as each message ends, before it is parsed: `holdAfter` must not wait for the parser.
  let accepted = 0;
  const notify = () => {
    for (const waiter of waiters.splice(0)) if (!waiter()) waiters.push(waiter);
  };
  const state: TestSmtp = {
    port: 0,
    url: '',
    received,
    attempts,
    answer,
    holdAfter: Number.POSITIVE_INFINITY,
    held: 0,
    waitForHeld: (count) =>
      new Promise((resolve) => {
        const check = () => (state.held >= count ? (resolve(), true) : false);
        if (!check()) waiters.push(check);
      }),
    waitFor: (count) =>
      new Promise((resolve) => {
        const check = () => (received.length >= count ? (resolve(received), true) : false);
        if (!check()) waiters.push(check);
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A held connection is dropped at once when the test closes the server.
    closeTimeout: 50,
    onAuth: (_auth, _session, callback) => callback(null, { user: 'test' }),
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const times = [...(attempts.get(address.address) ?? []), Date.now()];
      attempts.set(address.address, times);
      const attempt = times.length;
      const reply = state.answer(address.address, attempt);
      if (!reply) return callback();
      const error = new Error(reply.message) as Error & { responseCode: number };
      error.responseCode = reply.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (accepted >= state.holdAfter) {
          state.held++;
          notify();
          return;
        }
        accepted++;
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          mail: await simpleParser(raw),
          raw,
        });
        notify();
        callback();
      });
    },
  });
  state.port = await listenInRange(server);
  // A client killed mid-message (the kill -9 tests) resets its connection, which smtp-server reports
  // as an 'error' event; with no listener that would end the test process. What a test reads is what
  // the server received, not how a connection ended.
  server.on('error', () => {});
  state.url = `smtp://user:secret@127.0.0.1:${state.port}`;
  return state;
}
