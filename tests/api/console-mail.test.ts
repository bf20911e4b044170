import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runResults } from '../support/results-cli.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';
import { ConsoleBrowser, FOLLOWED, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';

// A survey's mail page in the console, on both databases: the page and its acts for each role
// (403 below a manager), a preview and a dry run, a send run killed with kill -9 mid-way and
// resumed by the next start with no message sent twice, one run at a time from the console and the
// command line alike, a receipt left `sending` by a process that died sent once, and a bounce
// report uploaded (and the uploads that will not do, refused with nothing changed).

const ROOT = path.resolve(import.meta.dirname, '../..');
const ROLES = ['auditor', 'reviewer', 'manager', 'owner'] as const;
type Role = (typeof ROLES)[number];
const address = (role: Role) => `${role}@metrohealth.example`;
const ELSEWHERE = 'elsewhere@metrohealth.example';
const SURVEY = 'peer-check';
const PAGE = `/console/${SURVEY}/mail/`;
const SEND = `/api/console/surveys/${SURVEY}/mail/send`;
const BOUNCES = `/api/console/surveys/${SURVEY}/mail/bounces`;
const FROM = 'Peer Check <votes@peer.example>';
const SLOW = 60_000;

let server: ConsoleServer;
let smtp: TestSmtp;
/** The mail server of the first start, which holds messages when told, to be left behind by a kill -9. */
let slow: TestSmtp;
const browsers = {} as Record<Role, ConsoleBrowser>;
let elsewhere: ConsoleBrowser;

const db = () => server.api.db();
const env = (extra: Record<string, string> = {}) => ({
  SURVEYS_DIR: server.surveysDir,
  DATA_DIR: server.api.dataDir,
  DATABASE_URL: server.api.databaseUrl,
  SMTP_URL: smtp.url,
  MAIL_FROM: FROM,
  ...extra,
});
const results = (args: string[], extra: Record<string, string> = {}) => runResults(args, env(extra));
const count = async (table: 'mail_runs' | 'audit_log' | 'mail_messages') =>
  Number((await db().selectFrom(table).select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** Puts people on the survey's roster with `results invite`. */
async function invite(people: string[]): Promise<void> {
  const roster = path.join(server.surveysDir, `roster-${people[0]}.csv`);
  writeFileSync(roster, `email,name-first,name-last\n${people.map((name) => `${name}@peer.example,${name},Test`).join('\n')}\n`);
  const invited = await results(['invite', SURVEY, '--roster', roster, '--out', path.join(server.surveysDir, `links-${people[0]}.csv`)]);
  expect(invited.code, invited.stderr).toBe(0);
}

/** Kills the server with kill -9 and starts it again on the same database (on a port of its own: the browsers follow). */
async function killAndStart(extra: Record<string, string>, meanwhile: () => Promise<void> = async () => undefined): Promise<void> {
  const pid = server.api.pid;
  process.kill(pid, 'SIGKILL');
  await server.api.stopped();
  await meanwhile();
  await server.api.restart(extra);
  server.origin = server.api.url.replace('127.0.0.1', 'localhost');
}

/** Messages every mail server got for one person. */
const receivedBy = (name: string) => [...slow.received, ...smtp.received].filter((one) => one.to[0] === `${name}@peer.example`);

beforeAll(async () => {
  smtp = await startSmtp();
  slow = await startSmtp();
  server = await startConsole(
    operatorsYaml({
      ...Object.fromEntries(ROLES.map((role) => [address(role), { [SURVEY]: role }])),
      [ELSEWHERE]: { 'top-doctors-demo': 'owner' },
    }),
    { SMTP_URL: slow.url, MAIL_FROM: FROM, MAIL_RETRY_WAITS: '0' },
    (surveysDir) => appendFileSync(path.join(surveysDir, SURVEY, 'survey.yaml'), '\nmail:\n  receipt: true\n'),
  );
  for (const role of ROLES) browsers[role] = await new ConsoleBrowser(server).enrolled(address(role));
  elsewhere = await new ConsoleBrowser(server).enrolled(ELSEWHERE);
  await invite(['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal']);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await slow?.close();
});

describe('who may', () => {
  test.each(ROLES)('a %s is shown the page and may act only as a manager or an owner; below, 403 and nothing changes', async (role) => {
    const page = await browsers[role].page(PAGE);
    const before = { runs: await count('mail_runs'), trail: await count('audit_log') };
    const send = await browsers[role].post(SEND, { campaign: 'invitations', rate: 'x' });
    const upload = await browsers[role].request(BOUNCES, {
      method: 'POST',
      headers: { Origin: server.origin, 'X-Console-CSRF': browsers[role].csrf, Accept: 'application/json' },
      body: new FormData(),
    });
    const progress = await browsers[role].request(`/api/console/surveys/${SURVEY}/mail/runs/00000000-0000-4000-8000-000000000000`);
    if (role === 'auditor' || role === 'reviewer') {
      expect(page.status).toBe(403);
      expect(page.body).toContain('Only a manager or an owner of this survey may mail its roster');
      expect(page.body).not.toContain('Send invitations');
      expect([send.status, send.body.error]).toEqual([403, 'forbidden']);
      expect([upload.status, upload.body.error]).toEqual([403, 'forbidden']);
      expect(progress.status).toBe(403);
      // The survey's page does not lead there.
      expect((await browsers[role].page(`/console/${SURVEY}/`)).body).not.toContain(`href="${PAGE}"`);
    } else {
      expect(page.status).toBe(200);
      expect(page.body).toMatch(/>\s*Send invitations\s*<\/button>/);
      expect(page.body).toMatch(/>\s*Send reminders\s*<\/button>/);
      expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      // Past the role check, the rate is what is wrong.
      expect([send.status, send.body.error]).toEqual([400, 'invalid_rate']);
      expect([upload.status, upload.body.error]).toEqual([400, 'no_report']);
      expect([progress.status, progress.body.error]).toEqual([404, 'unknown_run']);
      expect((await browsers[role].page(`/console/${SURVEY}/`)).body).toContain(`<a href="${PAGE}">Mail</a>`);
    }
    expect({ runs: await count('mail_runs'), trail: await count('audit_log') }).toEqual(before);
  });

  test('a survey the operator has no role on is not found, page and acts', async () => {
    expect((await elsewhere.page(PAGE)).status).toBe(404);
    expect((await elsewhere.post(SEND, { campaign: 'invitations', rate: '60' })).body.error).toBe('unknown_survey');
    expect(await count('mail_runs')).toBe(0);
  });
});

describe('before sending', () => {
  test('a preview shows one person’s invitation as it will leave, its HTML in a sandboxed frame; a dry run counts who would get one', async () => {
    const page = await browsers.manager.page(`${PAGE}?preview=invitations&to=CAT@peer.example`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('cat@peer.example');
    expect(page.body).toMatch(/<iframe[^>]* sandbox=""[^>]* srcdoc="[^"]*cat/);
    expect(page.body).toContain(`${server.origin}/api/unsubscribe/`);
    const unknown = await browsers.manager.page(`${PAGE}?preview=reminders&to=nobody@peer.example`);
    expect(unknown.body).toContain('No one on the roster has this address.');
    const dry = await browsers.manager.page(`${PAGE}?dry-run=invitations`);
    expect(dry.body).toContain('A dry run of invitations: 8 people would get one; skipped: 2 no_address. Nothing was sent.');
    expect(await count('mail_messages')).toBe(0);
  });
});

describe('a send run', () => {
  test(
    'killed with kill -9 mid-way resumes at the next start and finishes, no message sent twice; its progress is read as it goes',
    async () => {
      slow.holdAfter = 3;
      const started = await browsers.manager.post(SEND, { campaign: 'invitations', rate: '6000' });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const run = started.body.run as string;
      await slow.waitForHeld(1);
      const progress = () => browsers.manager.request(`/api/console/surveys/${SURVEY}/mail/runs/${run}`);
      await expect.poll(async () => (await progress()).body.sent, FOLLOWED).toBe(3);
      expect((await progress()).body).toMatchObject({ state: 'running', total: 8, campaign: 'invitation', startedBy: 'manager', failed: 0 });
      const page = await browsers.manager.page(PAGE);
      expect(page.body).toMatch(/role="status"[^>]*>\s*Sending invitations: \d+ sent, 0 failed, \d+ left of 8\./);
      expect(page.body).not.toMatch(/>\s*Send invitations\s*<\/button>/);

      let inFlight = 0;
      await killAndStart({ SMTP_URL: smtp.url }, async () => {
        inFlight = (await db().selectFrom('mail_messages').select('status').where('status', '=', 'sending').execute()).length;
      });
      expect(inFlight).toBeGreaterThan(0);
      await expect.poll(async () => (await db().selectFrom('mail_runs').select('state').executeTakeFirstOrThrow()).state, FOLLOWED).toBe('done');

      const people = ['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal'];
      for (const name of people) expect(receivedBy(name).length, name).toBeLessThanOrEqual(1);
      const unknown = await db().selectFrom('mail_messages').select('recipient').where('status', '=', 'unknown').execute();
      expect(unknown.length).toBe(inFlight);
      const reached = people.filter((name) => receivedBy(name).length === 1).length;
      expect(reached + unknown.length).toBeGreaterThanOrEqual(people.length);
      expect(await db().selectFrom('mail_messages').select('message_id').where('run_id', '=', run).execute()).toHaveLength(8);
      const ended = await browsers.manager.page(PAGE);
      expect(ended.body).toMatch(new RegExp(`Sent: invitations\\. ${8 - unknown.length} sent, 0 failed, 0 bounced, ${unknown.length} unknown`));
      const trail = await db().selectFrom('audit_log').select(['action', 'actor', 'via']).where('action', 'like', 'send run%').orderBy('seq').execute();
      expect(trail).toEqual([
        { action: 'send run started', actor: 'manager', via: 'console' },
        { action: 'send run ended', actor: 'manager', via: 'console' },
      ]);
    },
    SLOW,
  );

  test(
    'two at once are refused: a console run while the command line sends, and a send on the command line or a second console run while a console run goes',
    async () => {
      await invite(['kim', 'lou', 'mia', 'ned']);
      const held = await startSmtp();
      held.holdAfter = 0;
      const command = spawn(process.execPath, ['bin/results.mjs', 'send', SURVEY, 'invitations', '--limit', '1'], {
        cwd: ROOT,
        env: { ...process.env, ...env({ SMTP_URL: held.url }) },
        stdio: 'ignore',
      });
      try {
        await held.waitForHeld(1);
        const runs = await count('mail_runs');
        const refused = await browsers.owner.post(SEND, { campaign: 'invitations', rate: '60' });
        expect([refused.status, refused.body.error]).toEqual([409, 'send_running']);
        expect(refused.body.message).toMatch(/^A send of invitations from the command line has been running since /);
        expect(await count('mail_runs')).toBe(runs);
      } finally {
        command.kill('SIGKILL');
        await new Promise((resolve) => command.once('exit', resolve));
        await held.close();
      }

      // One a minute: the first goes at once, the next waits, and the run holds the survey meanwhile.
      const started = await browsers.owner.post(SEND, { campaign: 'invitations', rate: '1' });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      await expect.poll(async () => (await browsers.owner.request(`/api/console/surveys/${SURVEY}/mail/runs/${started.body.run}`)).body.sent, FOLLOWED).toBe(1);
      const second = await browsers.manager.post(SEND, { campaign: 'reminders', rate: '60' });
      expect([second.status, second.body.error]).toEqual([409, 'send_running']);
      const before = await count('mail_messages');
      for (const campaign of ['invitations', 'reminders']) {
        const cli = await results(['send', SURVEY, campaign]);
        expect(cli.code).not.toBe(0);
        expect(cli.stderr).toMatch(/A send run of invitations for peer-check, started in the console by owner at \S+, is running: wait for it to end/);
      }
      expect(await count('mail_messages')).toBe(before);
    },
    SLOW,
  );
});

describe('receipts', () => {
  test('a receipt left `sending` by a process that died is sent once by the next; one another live process is sending is left to it', async () => {
    const mailed = smtp.received.length;
    await expect.poll(async () => (await db().selectFrom('mail_messages').select('status').where('kind', '=', 'receipt').execute()).length).toBe(0);
    const row = (id: string, recipient: string, claim: { claimed_by: string; claim_expires_at: string }) => ({
      message_id: `<${id}@peer.example>`,
      project_id: SURVEY,
      kind: 'receipt' as const,
      email_key: recipient,
      recipient,
      status: 'sending' as const,
      attempts: 1,
      created_at: new Date().toISOString(),
      sent_at: null,
      detail: null,
      payload: JSON.stringify({ name: 'Test', url: 'https://vote.peer.example/peer-check/receipt', receipt: 'ABCD2345EFGH' }),
      run_id: null,
      ...claim,
    });
    const soon = new Date(Date.now() + 10 * 60_000).toISOString();
    // A process of this machine that has ended (the one killed above), and one of another machine, alive as far as its claim says.
    const dead = `${server.api.pid}@${(await import('node:os')).hostname()}#gone`;
    await db()
      .insertInto('mail_messages')
      .values([
        row('dead-claim', 'ann@peer.example', { claimed_by: dead, claim_expires_at: soon }),
        row('live-claim', 'bob@peer.example', { claimed_by: '1@mail-2.peer.example#alive', claim_expires_at: soon }),
      ])
      .execute();
    await killAndStart({ SMTP_URL: smtp.url });
    const status = async (id: string) =>
      (await db().selectFrom('mail_messages').select('status').where('message_id', '=', `<${id}@peer.example>`).executeTakeFirstOrThrow()).status;
    await expect.poll(() => status('dead-claim'), FOLLOWED).toBe('sent');
    expect(await status('live-claim')).toBe('sending');
    const receipts = smtp.received.slice(mailed).filter((one) => ['<dead-claim@peer.example>', '<live-claim@peer.example>'].includes(one.mail.messageId ?? ''));
    expect(receipts.map((one) => one.to[0])).toEqual(['ann@peer.example']);
  });
});

describe('bounce reports', () => {
  const upload = (browser: ConsoleBrowser, files: Array<{ name: string; text: string | Uint8Array<ArrayBuffer> }>) => {
    const form = new FormData();
    form.set('csrf', browser.csrf);
    for (const file of files) form.append('report', new Blob([file.text]), file.name);
    return browser.request(BOUNCES, {
      method: 'POST',
      headers: { Origin: server.origin, 'Sec-Fetch-Site': 'same-origin', Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate' },
      body: form,
    });
  };

  test('an .eml uploaded marks its person bounced, as results bounces does, signed in the trail; the page says what it read', async () => {
    const invitation = await db()
      .selectFrom('mail_messages')
      .select(['message_id', 'recipient'])
      .where('kind', '=', 'invitation')
      .where('status', '=', 'sent')
      .orderBy('recipient')
      .executeTakeFirstOrThrow();
    const dsn = readFileSync(path.join(ROOT, 'tests/api/fixtures/mail/dsn-550.eml'), 'utf8')
      .replaceAll('{{recipient}}', invitation.recipient)
      .replaceAll('{{message_id}}', invitation.message_id);
    const other = readFileSync(path.join(ROOT, 'tests/api/fixtures/mail/dsn-550.eml'), 'utf8')
      .replaceAll('{{recipient}}', 'nobody@peer.example')
      .replaceAll('{{message_id}}', '<not-ours@elsewhere.example>');
    const answer = await upload(browsers.owner, [
      { name: 'reports.mbox', text: `From MAILER-DAEMON Wed Nov 25 11:00:00 2026\n${dsn}\nFrom MAILER-DAEMON Wed Nov 25 11:01:00 2026\n${other}` },
    ]);
    expect(answer.status, String(answer.body).slice(0, 300)).toBe(303);
    const page = await browsers.owner.page(answer.headers.get('location') ?? '');
    expect(page.body).toContain('2 reports read: 1 bounced, 0 complained, 0 delayed (noted), 1 matched no message.');
    const recipient = await db().selectFrom('mail_recipients').select('bounced_at').where('email_key', '=', invitation.recipient).executeTakeFirstOrThrow();
    expect(recipient.bounced_at).not.toBeNull();
    const entry = await db().selectFrom('audit_log').select(['actor', 'via', 'details']).where('action', '=', 'bounces').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor: 'owner', via: 'console' });
    expect(JSON.parse(entry.details ?? '{}')).toMatchObject({ reports: 2, bounced: 1, unmatched: 1 });
  });

  test('no file, a file that is not mail, and one past the limit are refused with a clear 4xx, and nothing changes', async () => {
    // What a report changes: a message bounced or complained of, its recipient marked, a line in the trail. (A run an
    // earlier test left going may meanwhile send a message, which is not the upload's doing.)
    const reported = async () => ({
      trail: (await db().selectFrom('audit_log').select('seq').where('action', '=', 'bounces').execute()).length,
      messages: await db()
        .selectFrom('mail_messages')
        .select(['message_id', 'status'])
        .where('status', 'in', ['bounced', 'complained'])
        .orderBy('message_id')
        .execute(),
      recipients: await db().selectFrom('mail_recipients').select(['email_key', 'bounced_at', 'complained_at']).orderBy('email_key').execute(),
    });
    const before = await reported();
    const none = await upload(browsers.owner, []);
    expect(none.status).toBe(400);
    expect(none.body).toContain('Choose a report to upload');
    const binary = await upload(browsers.owner, [{ name: 'photo.png', text: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]) }]);
    expect(binary.status).toBe(400);
    expect(binary.body).toContain('photo.png is not mail');
    const large = await upload(browsers.owner, [{ name: 'big.mbox', text: `From x\n${'a'.repeat(5 * 1024 * 1024)}` }]);
    expect(large.status).toBe(413);
    expect(large.body).toContain('The file is larger than 5 MB');
    expect(await reported()).toEqual(before);
  });
});

describe('the deliveries table', () => {
  test('lists the messages newest first, filtered by status, a page at a time', async () => {
    const all = await browsers.manager.page(PAGE);
    expect(all.body).toMatch(/<caption>Messages, newest first \(\d+ shown\)<\/caption>/);
    const unknown = await browsers.manager.page(`${PAGE}?status=unknown`);
    const rows = (text: string) => [...text.matchAll(/data-label="Status">(\w+)</g)].map((match) => match[1]);
    expect(rows(unknown.body).length).toBeGreaterThan(0);
    expect(new Set(rows(unknown.body))).toEqual(new Set(['unknown']));
    expect(rows(all.body).length).toBeGreaterThan(rows(unknown.body).length);
  });
});
