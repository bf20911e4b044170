import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startApi, type Api, type Fields } from './helpers.ts';
import { runResults } from '../support/results-cli.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';

// Invitations, reminders and receipts Peervote sends itself, against a real SMTP server started
// here: every message's fate recorded (sent, bounced, failed, unknown after a kill -9), one-click
// unsubscribe, reports that arrive later, and the file transport of npm start's defaults.

const ROOT = path.resolve(import.meta.dirname, '../..');
const FROM = 'Peer Check <votes@peer.example>';
const QUERY = { project_id: 'peer-check', project_type: 'form' };
const SLOW = 120_000;

let api: Api;
let smtp: TestSmtp;
let work: string;
let surveys: string;
let privateDir: string;
const secrets = new Map<string, string>();

const env = (extra: Record<string, string> = {}) => ({
  SURVEYS_DIR: surveys,
  DATA_DIR: api.dataDir,
  DATABASE_URL: api.databaseUrl,
  PEERVOTE_PRIVATE_DIR: privateDir,
  SMTP_URL: smtp.url,
  MAIL_FROM: FROM,
  PEERVOTE_BASE_URL: 'https://vote.peer.example',
  ...extra,
});
const results = (args: string[], extra: Record<string, string> = {}) => runResults(args, env(extra));
const csvRows = (text: string) =>
  text
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(','));
const statusOf = async () =>
  Object.fromEntries(
    csvRows((await results(['deliveries', 'peer-check'])).stdout)
      .filter(([email]) => email)
      .map(([email, status]) => [email.split('@')[0], status]),
  );
const unsubscribeUrl = (raw: string) => /^List-Unsubscribe:\s*<([^>]+)>/m.exec(raw)?.[1] ?? '';
/** Messages taken by a test's SMTP server of its own, since closed: which of a run's first messages it took depends on timing. */
const takenElsewhere: TestSmtp['received'] = [];
const receivedBy = (local: string) => [...smtp.received, ...takenElsewhere].filter((one) => one.to[0] === `${local}@peer.example`);
/** Starts `send … invitations` as a process of its own through the SMTP server at `smtpUrl`, to be killed mid-run. */
const sendProcess = (smtpUrl: string) =>
  spawn(process.execPath, ['bin/results.mjs', 'send', 'peer-check', 'invitations'], {
    cwd: ROOT,
    env: { ...process.env, ...env({ SMTP_URL: smtpUrl }) },
    stdio: 'ignore',
  });
/** Kills a process with SIGKILL and resolves once it is gone. */
async function killHard(child: ReturnType<typeof spawn>): Promise<void> {
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

async function invite(people: string[]): Promise<void> {
  const roster = path.join(work, `roster-${people[0]}.csv`);
  writeFileSync(
    roster,
    `email,name-first,name-last\n${people.map((name) => `${name}@peer.example,${name[0].toUpperCase()}${name.slice(1)},Test`).join('\n')}\n`,
  );
  const out = path.join(work, `links-${people[0]}.csv`);
  const invited = await results(['invite', 'peer-check', '--roster', roster, '--out', out, '--base-url', 'https://vote.peer.example']);
  expect(invited.code, invited.stderr).toBe(0);
  for (const [, email, url] of csvRows(readFileSync(out, 'utf8'))) secrets.set(email.split('@')[0], url.split('/').at(-1)!);
}

function ballot(email: string): Fields {
  return [
    ['name-first', 'Dan'],
    ['name-last', 'Test'],
    ['email', email],
    ['nominations[Medicine][Cardiology][1]', 'c-3'],
    ['affirm', 'on'],
  ];
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'peervote-mail-'));
  surveys = path.join(work, 'surveys');
  privateDir = path.join(work, 'private');
  cpSync(inject('surveysDir'), surveys, { recursive: true });
  appendFileSync(path.join(surveys, 'peer-check', 'survey.yaml'), '\nmail:\n  receipt: true\n  reply_to: desk@peer.example\n');
  appendFileSync(path.join(surveys, 'verify-email', 'survey.yaml'), '\nmail:\n  receipt: true\n');
  smtp = await startSmtp((address, attempt) => {
    if (address.startsWith('bob@')) return { code: 550, message: '5.1.1 No such user here' };
    if (address.startsWith('cat@') && attempt === 1) return { code: 421, message: '4.7.0 Too busy, try again later' };
    return undefined;
  });
  api = await startApi({
    SURVEYS_DIR: surveys,
    PEERVOTE_PRIVATE_DIR: privateDir,
    SMTP_URL: smtp.url,
    MAIL_FROM: FROM,
    PEERVOTE_BASE_URL: 'https://vote.peer.example',
  });
  await invite(['ann', 'bob', 'cat', 'dan']);
});
afterAll(async () => {
  await api?.stop();
  await smtp?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('invitations', () => {
  test(
    'go to every invited person once: a 550 at RCPT bounces, a 421 is tried again after MAIL_RETRY_WAITS and goes; a second run sends nothing new',
    async () => {
      const preview = await results(['send', 'peer-check', 'invitations', '--preview', 'ANN@peer.example']);
      expect(preview.code, preview.stderr).toBe(0);
      expect(preview.stdout).toContain(`https://vote.peer.example/peer-check/${secrets.get('ann')}`);
      expect(preview.stdout).toMatch(/^List-Unsubscribe: <https:\/\/vote\.peer\.example\/api\/unsubscribe\/[\w-]{43}>$/m);
      const dry = await results(['send', 'peer-check', 'invitations', '--dry-run']);
      expect(dry.stderr).toContain('would send 4');
      expect(smtp.received).toHaveLength(0);

      // The first wait before a new try: a fraction of a second here rather than the 5 s by default.
      const sent = await results(['send', 'peer-check', 'invitations'], { MAIL_RETRY_WAITS: '0.4' });
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stderr).toContain('sent 3, bounced 1, failed 0');
      expect(sent.stderr).not.toContain('@');
      expect(smtp.received.map((one) => one.to[0]).sort()).toEqual(['ann@peer.example', 'cat@peer.example', 'dan@peer.example']);
      expect(smtp.attempts.get('cat@peer.example')).toHaveLength(2);
      const [refusedAt, acceptedAt] = smtp.attempts.get('cat@peer.example')!;
      // At least the wait set, and less than the default's first wait (5 s): the setting was heeded.
      expect(acceptedAt - refusedAt).toBeGreaterThanOrEqual(390);
      expect(acceptedAt - refusedAt).toBeLessThan(5_000);
      const [mail] = receivedBy('ann');
      expect(mail.mail.from?.value[0].address).toBe('votes@peer.example');
      expect(mail.mail.replyTo?.value[0].address).toBe('desk@peer.example');
      expect(mail.mail.text).toContain(`https://vote.peer.example/peer-check/${secrets.get('ann')}`);
      expect(mail.mail.html).toContain(`href="https://vote.peer.example/peer-check/${secrets.get('ann')}"`);
      expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      const unsubscribe = unsubscribeUrl(mail.raw);
      expect(unsubscribe).toMatch(/^https:\/\/vote\.peer\.example\/api\/unsubscribe\/[\w-]{43}$/);
      expect(unsubscribe).not.toContain(secrets.get('ann'));
      expect(mail.mail.text).toContain(unsubscribe);

      expect(await statusOf()).toEqual({ ann: 'sent', bob: 'bounced', cat: 'sent', dan: 'sent' });
      const again = await results(['send', 'peer-check', 'invitations']);
      expect(again.stderr).toContain('sent 0, bounced 0, failed 0; skipped: 3 already_invited, 1 bounced');
      expect(smtp.received).toHaveLength(3);
      const audit = csvRows((await results(['audit', 'peer-check'])).stdout).map((cells) => cells[3]);
      expect(audit.filter((action) => action === 'send')).toHaveLength(2);
    },
    SLOW,
  );

  test(
    'a run killed with kill -9 leaves the messages in flight unknown, no more than the pool has connections: the next run sends the others, --resend-unknown those',
    async () => {
      // The first five go out at once; the first three answered are recorded as their connections
      // take the next three, and those and the two left are held: five in flight at the kill, not eight.
      const people = ['pat', 'quy', 'ray', 'sam', 'tom', 'eve', 'fay', 'gus', 'hal', 'ivy', 'jay', 'lea'];
      await invite(people);
      const sentInvitations = async () =>
        (await api.db().selectFrom('mail_messages').select('status').where('status', '=', 'sent').where('kind', '=', 'invitation').execute()).length;
      const sentBefore = await sentInvitations();
      const slow = await startSmtp();
      slow.holdAfter = 3;
      const child = sendProcess(slow.url);
      await slow.waitForHeld(5);
      await killHard(child);
      await slow.close();
      const inFlight = await api.db().selectFrom('mail_messages').select('status').where('status', '=', 'sending').execute();
      expect(inFlight).toHaveLength(5);
      expect(slow.received).toHaveLength(3);
      expect(await sentInvitations()).toBe(sentBefore + 3);

      const resumed = await results(['send', 'peer-check', 'invitations']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain('sent 4,');
      expect(resumed.stderr).toContain('5 unknown (use --resend-unknown)');
      expect(resumed.stderr).toContain('5 left in flight by an earlier run marked unknown');
      const statuses = Object.values(await statusOf());
      expect(statuses.filter((status) => status === 'unknown')).toHaveLength(5);
      const resent = await results(['send', 'peer-check', 'invitations', '--resend-unknown']);
      expect(resent.stderr).toContain('sent 5,');
      expect(Object.values(await statusOf()).filter((status) => status === 'unknown')).toHaveLength(0);
      takenElsewhere.push(...slow.received);
      for (const name of people) expect(receivedBy(name).length).toBeGreaterThanOrEqual(1);
    },
    SLOW,
  );

  test(
    'a mail server that cannot be reached stops the command in one line, and everyone keeps their state',
    async () => {
      await invite(['max']);
      const before = await statusOf();
      const run = await results(['send', 'peer-check', 'invitations'], { SMTP_URL: 'smtp://user:hunter2@127.0.0.1:1' });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/^send invitations: through SMTP 127\.0\.0\.1:1\.\nCannot reach the mail server \(SMTP 127\.0\.0\.1:1\): .*\n$/);
      expect(run.stderr).not.toContain('hunter2');
      expect(await statusOf()).toEqual(before);
      expect(before.max).toBe('not_sent');
    },
    SLOW,
  );
});

describe('one-click unsubscribe', () => {
  test(
    'the GET asks to confirm and changes nothing; the POST, with no Origin, records it; an unknown token is 404',
    async () => {
      const url = unsubscribeUrl(receivedBy('ann')[0].raw);
      const address = new URL(url).pathname;
      const page = await api.get(address, { Accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.body).toContain('<button class="button" type="submit">Unsubscribe</button>');
      expect(page.body).toContain(`<form method="post" action="${address}">`);
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      expect((await statusOf()).ann).toBe('sent');

      const bad = await api.request(address, { method: 'POST', body: 'unsubscribe=yes', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
      expect(bad).toMatchObject({ status: 400, body: { error: 'bad_unsubscribe' } });
      const unknown = await api.request('/api/unsubscribe/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(unknown).toMatchObject({ status: 404, body: { error: 'unknown_token' } });
      expect((await api.get('/api/unsubscribe/nope', { Accept: 'text/html' })).status).toBe(404);
      expect((await statusOf()).ann).toBe('sent');

      const one = await api.request(address, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(one).toMatchObject({ status: 200, body: { unsubscribed: true } });
      const twice = await api.request(address, {
        method: 'POST',
        body: 'List-Unsubscribe=One-Click',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(twice.status).toBe(200);
      expect((await statusOf()).ann).toBe('unsubscribed');
      expect((await api.get(address, { Accept: 'text/html' })).body).toContain('You are unsubscribed');
      // Their personal link still works.
      expect((await api.get(`/api/survey/link/peer-check?secret=${secrets.get('ann')}`)).status).toBe(200);
      const audit = csvRows((await results(['audit', 'peer-check'])).stdout).map((cells) => cells[3]);
      expect(audit.filter((action) => action === 'unsubscribe')).toHaveLength(1);
      expect(api.log()).not.toContain('@peer.example');
    },
    SLOW,
  );
});

describe('receipts and reminders', () => {
  test(
    "a ballot from a personal link gets a receipt at the roster's address, whatever address it typed; a public ballot gets none",
    async () => {
      const before = smtp.received.length;
      const stored = await api.post(ballot('someone-else@elsewhere.example'), { query: { ...QUERY, secret: secrets.get('dan')! } });
      expect(stored.status).toBe(201);
      const [receipt] = (await smtp.waitFor(before + 1)).slice(before);
      expect(receipt.to).toEqual(['dan@peer.example']);
      expect(receipt.mail.subject).toBe('Your ballot was received: Peer Check');
      const code = stored.body.receipt as string;
      expect(receipt.mail.text).toContain(`${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8)}`);
      expect(receipt.mail.text).toContain('https://vote.peer.example/peer-check/receipt');
      expect(receipt.mail.text).not.toContain('c-3');
      expect(receipt.raw).not.toMatch(/^List-Unsubscribe/im);

      const open = await api.post(ballot('stranger@elsewhere.example'), { query: QUERY });
      expect(open.status, JSON.stringify(open.body)).toBe(201);
      const receipts = await api.db().selectFrom('mail_messages').select(['recipient']).where('kind', '=', 'receipt').execute();
      expect(receipts).toEqual([{ recipient: 'dan@peer.example' }]);
      expect(api.log()).not.toContain('@');
    },
    SLOW,
  );

  test(
    'reminders skip voters, unsubscribed and bounced people; and wait --min-gap days',
    async () => {
      const soon = await results(['send', 'peer-check', 'reminders']);
      expect(soon.stderr).toContain('sent 0,');
      expect(soon.stderr).toMatch(/too_soon \(--min-gap\)/);
      const before = smtp.received.length;
      const sent = await results(['send', 'peer-check', 'reminders', '--min-gap', '0', '--only', 'cat@peer.example']);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stderr).toContain('sent 1,');
      const all = await results(['send', 'peer-check', 'reminders', '--min-gap', '0', '--limit', '0']);
      expect(all.stderr).toMatch(/skipped: .*1 unsubscribed/);
      expect(all.stderr).toMatch(/1 bounced/);
      expect(all.stderr).toMatch(/1 voted/);
      expect(all.stderr).toMatch(/1 not_invited/);
      expect(smtp.received.slice(before).map((one) => one.to[0])).toEqual(['cat@peer.example']);
      expect(smtp.received.at(-1)!.mail.subject).toBe('A reminder to vote: Peer Check');
      const line = csvRows((await results(['deliveries', 'peer-check'])).stdout).find(([email]) => email === 'cat@peer.example')!;
      expect(line.slice(1, 4)).toEqual(['sent', '1', '1']);
      const summary = await results(['responses', 'peer-check']);
      expect(summary.stdout).toMatch(/Mail: 3 not_sent, \d+ sent, 0 unknown, 0 failed, 1 bounced, 0 complained, 1 unsubscribed\./);
    },
    SLOW,
  );
});

describe('reports that arrive later', () => {
  test(
    'a DSN 5.1.1 bounces, an abuse report complains, a 4.x.x delay is noted; a report that matches nothing is listed and the command succeeds',
    async () => {
      const fixture = (name: string, local: string, messageId: string) =>
        readFileSync(path.join(ROOT, 'tests/api/fixtures/mail', name), 'utf8')
          .replaceAll('{{recipient}}', `${local}@peer.example`)
          .replaceAll('{{message_id}}', messageId);
      const catReminder = smtp.received.at(-1)!.mail.messageId!;
      const gusInvitation = receivedBy('gus')[0].mail.messageId!;
      const eveInvitation = receivedBy('eve')[0].mail.messageId!;
      const dsn = path.join(work, 'dsn.eml');
      writeFileSync(dsn, fixture('dsn-550.eml', 'cat', catReminder));
      const mbox = path.join(work, 'reports.mbox');
      writeFileSync(
        mbox,
        `From MAILER-DAEMON Wed Nov 25 11:00:00 2026\n${fixture('arf-abuse.eml', 'gus', gusInvitation)}\nFrom MAILER-DAEMON Wed Nov 25 11:01:00 2026\n${fixture('dsn-delay.eml', 'eve', eveInvitation)}\nFrom MAILER-DAEMON Wed Nov 25 11:02:00 2026\n${fixture('dsn-550.eml', 'nobody', '<not-ours@elsewhere.example>')}`,
      );
      const run = await results(['bounces', 'peer-check', dsn, mbox]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('bounces: 4 reports; 1 bounced, 1 complained, 1 delayed (noted), 0 changed nothing, 1 matched no message.');
      expect(run.stderr).toContain(`unmatched: ${mbox} <dsn-1@mx.peer.example>`);
      const statuses = await statusOf();
      expect(statuses).toMatchObject({ cat: 'bounced', gus: 'complained', eve: 'sent' });
      const eve = csvRows((await results(['deliveries', 'peer-check'])).stdout).find(([email]) => email === 'eve@peer.example')!;
      expect(eve.join(',')).toContain('delayed: 4.4.7');
      const audit = csvRows((await results(['audit', 'peer-check'])).stdout).map((cells) => cells[3]);
      expect(audit).toContain('bounces');
    },
    SLOW,
  );
});

describe('a burst of ballots', () => {
  test(
    'every receipt goes once, the outbox sending them in batches while the ballots come first, and each is recorded sent',
    async () => {
      const people = Array.from({ length: 45 }, (_, n) => `burst${n}`);
      await invite(people);
      const before = smtp.received.length;
      const stored = await Promise.all(
        people.map((name) => api.post(ballot(`${name}@elsewhere.example`), { query: { ...QUERY, secret: secrets.get(name)! } })),
      );
      expect(stored.map((one) => one.status)).toEqual(people.map(() => 201));
      const addresses = people.map((name) => `${name}@peer.example`).sort();
      const receipts = () =>
        api.db().selectFrom('mail_messages').select(['recipient', 'status']).where('kind', '=', 'receipt').where('recipient', 'in', addresses).execute();
      // Each ballot owes its receipt from its own transaction on: on its row until the outbox has
      // queued it, then as a message (one statement, so that one view of the database counts both).
      const ids = stored.map((one) => one.body.ballot_id as string);
      const { rows } = await sql<{ owed: number | string; queued: number | string }>`select
          (select count(*) from ballots where id in (${sql.join(ids)}) and receipt_mail_due = ${'https://vote.peer.example/peer-check/receipt'}) as owed,
          (select count(*) from mail_messages where kind = 'receipt' and recipient in (${sql.join(addresses)})) as queued`.execute(api.db());
      expect(Number(rows[0].owed) + Number(rows[0].queued)).toBe(people.length);
      await expect.poll(async () => (await receipts()).filter((row) => row.status === 'sent').length, { timeout: 30_000 }).toBe(people.length);
      const received = smtp.received.slice(before).filter((one) => one.mail.subject?.startsWith('Your ballot was received'));
      expect(received.map((one) => one.to[0]).sort()).toEqual(addresses);
    },
    SLOW,
  );
});

describe('a receipt to a verified address', () => {
  test(
    'a public ballot sent with a proven address gets its receipt there, and a typed address none',
    async () => {
      const form = (fields: Record<string, string>) => ({
        method: 'POST',
        body: new URLSearchParams(fields),
        headers: { Origin: api.url, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      });
      let before = smtp.received.length;
      expect((await api.request('/api/survey/verify/verify-email', form({ address: 'vera@peer.example' }))).status).toBe(202);
      const [codeMail] = (await smtp.waitFor(before + 1)).slice(before);
      const code = /(\d{6})/.exec(codeMail.mail.subject ?? '')?.[1] ?? '';
      const checked = await api.request('/api/survey/verify/verify-email/code', form({ address: 'vera@peer.example', code }));
      expect(checked.status, JSON.stringify(checked.body)).toBe(200);

      before = smtp.received.length;
      const stored = await api.post([...ballot('typed-by-hand@elsewhere.example'), ['verification', checked.body.proof]], {
        query: { project_id: 'verify-email', project_type: 'form' },
      });
      expect(stored.status, JSON.stringify(stored.body)).toBe(201);
      const [receipt] = (await smtp.waitFor(before + 1)).slice(before);
      expect(receipt.to).toEqual(['vera@peer.example']);
      expect(receipt.mail.subject).toBe('Your ballot was received: Verified Email');
      expect(receipt.mail.text).toContain('Dear voter,');
      const code12 = stored.body.receipt as string;
      expect(receipt.mail.text).toContain(`${code12.slice(0, 4)}-${code12.slice(4, 8)}-${code12.slice(8)}`);
      const recipients = await api
        .db()
        .selectFrom('mail_messages')
        .select(['recipient'])
        .where('kind', '=', 'receipt')
        .where('project_id', '=', 'verify-email')
        .execute();
      expect(recipients).toEqual([{ recipient: 'vera@peer.example' }]);
    },
    SLOW,
  );
});

describe("npm start's defaults: the file transport", () => {
  test(
    'without SMTP_URL the API writes receipts as .eml files under DATA_DIR/mail/<slug>/, those queued or owed before a crash included',
    async () => {
      await invite(['nia']);
      // A server that cannot reach its mail server keeps the receipt queued, and the ballot is stored at once.
      await api.restart({ SMTP_URL: 'smtp://127.0.0.1:1' });
      const stored = await api.post(ballot('x@elsewhere.example'), { query: { ...QUERY, secret: secrets.get('lea')! } });
      expect(stored.status).toBe(201);
      const leaMessage = () =>
        api
          .db()
          .selectFrom('mail_messages')
          .select(['status', 'detail'])
          .where('kind', '=', 'receipt')
          .where('recipient', '=', 'lea@peer.example')
          .executeTakeFirst();
      // Its first try failed: the outbox rests, and a ballot stored meanwhile owes its receipt on its own row.
      await expect.poll(async () => (await leaMessage())?.detail ?? null, { timeout: 20_000 }).toMatch(/ECONNREFUSED/);
      expect((await leaMessage())?.status).toBe('queued');
      const owed = await api.post(ballot('y@elsewhere.example'), { query: { ...QUERY, secret: secrets.get('nia')! } });
      expect(owed.status).toBe(201);
      const owedRow = await api
        .db()
        .selectFrom('ballots')
        .select('receipt_mail_due')
        .where('id', '=', owed.body.ballot_id as string)
        .executeTakeFirst();
      expect(owedRow?.receipt_mail_due).toBe('https://vote.peer.example/peer-check/receipt');
      await api.restart({ SMTP_URL: '', MAIL_FROM: '' });
      const folder = path.join(api.dataDir, 'mail', 'peer-check');
      await expect.poll(() => (existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.eml')).length : 0), { timeout: 20_000 }).toBe(2);
      const files = readdirSync(folder);
      expect(files.join(' ')).not.toMatch(/lea|nia/);
      const mails = await Promise.all(files.map((file) => simpleParser(readFileSync(path.join(folder, file)))));
      const to = (mail: (typeof mails)[number]) => (mail.to && 'value' in mail.to ? mail.to.value[0].address : '');
      expect(mails.map(to).sort()).toEqual(['lea@peer.example', 'nia@peer.example']);
      const lea = mails.find((mail) => to(mail) === 'lea@peer.example')!;
      expect(lea.from?.value[0].address).toBe('no-reply@peervote.invalid');
      const code = stored.body.receipt as string;
      expect(lea.text).toContain(code.slice(0, 4));
      const nia = mails.find((mail) => to(mail) === 'nia@peer.example')!;
      expect(nia.text).toContain((owed.body.receipt as string).slice(0, 4));
      expect(await api.db().selectFrom('ballots').select('id').where('receipt_mail_due', 'is not', null).execute()).toEqual([]);
    },
    SLOW,
  );

  test(
    'a receipt owed while its survey is not served stays owed, and goes once the survey is back',
    async () => {
      await invite(['oli', 'pia']);
      const queued = (name: string) =>
        api
          .db()
          .selectFrom('mail_messages')
          .select(['status', 'detail'])
          .where('kind', '=', 'receipt')
          .where('recipient', '=', `${name}@peer.example`)
          .executeTakeFirst();
      // The outbox rests once its mail server cannot be reached: oli's receipt is queued, pia's stays owed on her ballot.
      await api.restart({ SMTP_URL: 'smtp://127.0.0.1:1' });
      expect((await api.post(ballot('o@elsewhere.example'), { query: { ...QUERY, secret: secrets.get('oli')! } })).status).toBe(201);
      await expect.poll(async () => (await queued('oli'))?.detail ?? null, { timeout: 20_000 }).toMatch(/ECONNREFUSED/);
      const pia = await api.post(ballot('p@elsewhere.example'), { query: { ...QUERY, secret: secrets.get('pia')! } });
      expect(pia.status).toBe(201);
      const owes = async () =>
        (
          await api
            .db()
            .selectFrom('ballots')
            .select('receipt_mail_due')
            .where('id', '=', pia.body.ballot_id as string)
            .executeTakeFirst()
        )?.receipt_mail_due;

      // A deploy takes the survey away for a while: the API restarted meanwhile serves one survey fewer.
      const served = async () => (await api.get('/api/health')).body.surveys as number;
      const before = await served();
      const away = path.join(work, 'peer-check-away');
      renameSync(path.join(surveys, 'peer-check'), away);
      try {
        await api.restart({ SMTP_URL: '', MAIL_FROM: '' });
        expect(await served()).toBe(before - 1);
        // The queued receipt of a survey no longer served fails; the owed one is left owed.
        await expect.poll(async () => (await queued('oli'))?.status, { timeout: 20_000 }).toBe('failed');
        expect(await owes()).toBe('https://vote.peer.example/peer-check/receipt');
      } finally {
        // Back, whatever happened above: the tests after this one mail the same survey.
        renameSync(away, path.join(surveys, 'peer-check'));
      }
      await expect.poll(served, { timeout: 20_000 }).toBe(before);
      await expect.poll(async () => (await queued('pia'))?.status, { timeout: 20_000 }).toBe('sent');
      expect(await owes()).toBeNull();
      const folder = path.join(api.dataDir, 'mail', 'peer-check');
      const files = readdirSync(folder).filter((name) => readFileSync(path.join(folder, name), 'utf8').includes('To: pia@peer.example'));
      expect(files).toHaveLength(1);
    },
    SLOW,
  );
});

describe('one run at a time', () => {
  const REFUSED =
    /^send (invitations|reminders): through SMTP 127\.0\.0\.1:\d+\.\nAnother send \(invitations\) for peer-check has been running since \S+, as process \d+ on "[^"]+": wait for it to end\./;
  const sendRuns = () => api.db().selectFrom('send_runs').selectAll().execute();

  test(
    'a second send while one runs stops at once and changes nothing; the first run killed with kill -9 lets the survey go at once',
    async () => {
      await invite(['kim', 'lou']);
      const slow = await startSmtp();
      slow.holdAfter = 0;
      const first = sendProcess(slow.url);
      await slow.waitForHeld(1);
      const sending = async () =>
        (await api.db().selectFrom('mail_messages').select(['message_id', 'status']).where('status', '=', 'sending').execute()).length;
      const inFlight = await sending();
      expect(inFlight).toBeGreaterThan(0);
      const before = await statusOf();
      const receivedBefore = smtp.received.length;

      for (const campaign of ['invitations', 'reminders']) {
        const second = await results(['send', 'peer-check', campaign]);
        expect(second.code).not.toBe(0);
        expect(second.stderr).toMatch(REFUSED);
        expect(second.stderr.trim().split('\n')).toHaveLength(2);
      }
      // The first run's messages are still its own, in flight: not marked unknown, not sent again.
      expect(await sending()).toBe(inFlight);
      expect(await statusOf()).toEqual(before);
      expect(smtp.received.length).toBe(receivedBefore);
      // A dry run changes nothing, so it may look meanwhile.
      const dry = await results(['send', 'peer-check', 'invitations', '--dry-run']);
      expect(dry.code, dry.stderr).toBe(0);

      await killHard(first);
      await slow.close();
      expect(await sendRuns()).toHaveLength(1);
      const next = await results(['send', 'peer-check', 'invitations', '--resend-unknown']);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toContain(`${inFlight} left in flight by an earlier run marked unknown`);
      for (const name of ['kim', 'lou']) expect(receivedBy(name)).toHaveLength(1);
      expect(await sendRuns()).toEqual([]);
    },
    SLOW,
  );

  test(
    "a run on another machine holds the survey while it has been heard from within a minute; after a minute's silence the next run takes it",
    async () => {
      const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
      await api
        .db()
        .insertInto('send_runs')
        .values({
          project_id: 'peer-check',
          run_id: 'elsewhere',
          host: 'mail-2.peer.example',
          pid: 1,
          campaign: 'invitation',
          started_at: at(600),
          renewed_at: at(5),
        })
        .execute();
      const held = await results(['send', 'peer-check', 'invitations']);
      expect(held.code).not.toBe(0);
      expect(held.stderr).toMatch(REFUSED);
      expect(held.stderr).toContain('as process 1 on "mail-2.peer.example"');

      await api
        .db()
        .updateTable('send_runs')
        .set({ renewed_at: at(61) })
        .where('run_id', '=', 'elsewhere')
        .execute();
      const taken = await results(['send', 'peer-check', 'invitations']);
      expect(taken.code, taken.stderr).toBe(0);
      expect(await sendRuns()).toEqual([]);
    },
    SLOW,
  );
});
