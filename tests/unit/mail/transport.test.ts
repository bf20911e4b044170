import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SENDER, createMailTransport, newMessageId, type MailSettings, type MailSurvey, type MailTransport } from '../../../src/mail/transport.ts';
import { transportThread } from '../../../src/results/delivery/transport-thread.ts';
import { readServerConfig } from '../../../src/server/config.ts';
import { startSmtp, type TestSmtp } from '../../support/smtp.ts';

const survey: MailSurvey = { slug: 'demo', config: { mail: { receipt: false, reply_to: 'Desk <desk@example.org>' } } };
const message = { to: 'ada@example.org', subject: 'Your ballot', text: 'Hello Ada', html: '<p>Hello Ada</p>', headers: { 'X-Probe': '1' } };

describe('the file transport (no SMTP_URL)', () => {
  it('writes one RFC 5322 .eml file a message under DATA_DIR/mail/<slug>/, from the stated default sender, named without the address', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-mail-'));
    const transport = createMailTransport(readServerConfig({ DATA_DIR: dataDir }).mail);
    const outcome = await transport.send(survey, message);
    transport.close();
    expect(outcome.status).toBe('sent');
    const [file, ...others] = readdirSync(path.join(dataDir, 'mail', 'demo'));
    expect(others).toEqual([]);
    expect(file).toMatch(/\.eml$/);
    expect(file).not.toContain('ada');
    const mail = await simpleParser(readFileSync(path.join(dataDir, 'mail', 'demo', file)));
    expect(mail.from?.value[0]).toEqual({ name: 'Peervote', address: 'no-reply@peervote.invalid' });
    expect(DEFAULT_SENDER).toBe('Peervote <no-reply@peervote.invalid>');
    expect(mail.replyTo?.value[0]).toEqual({ name: 'Desk', address: 'desk@example.org' });
    expect(mail.messageId).toBe(outcome.messageId);
    expect(mail.text?.trim()).toBe('Hello Ada');
    expect(mail.html).toContain('<p>Hello Ada</p>');
    expect(mail.headers.get('x-probe')).toBe('1');
  });
});

describe('the SMTP transport', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp((address, attempt) => {
      if (address.startsWith('gone@')) return { code: 550, message: '5.1.1 No such user' };
      // 451 rather than 421, which also closes the connection: the pool then sometimes sends the message again by itself.
      if (address.startsWith('busy') && attempt === 1) return { code: 451, message: '4.3.0 Try again later' };
      return undefined;
    });
  });
  afterAll(() => smtp.close());

  // The transport as the API uses it, and in a thread of its own as `send` uses it: they answer alike.
  const kinds: Array<[string, (settings: MailSettings) => MailTransport]> = [
    ['in the process', createMailTransport],
    ['in a thread of its own', transportThread],
  ];
  const settingsFor = (url: string) => readServerConfig({ DATA_DIR: tmpdir(), SMTP_URL: url, MAIL_FROM: 'Metro Health <votes@metro.example>' }).mail;

  it.each(kinds)('sends through the pool with the Message-ID chosen beforehand; 550 at RCPT is permanent, 451 temporary (%s)', async (kind, make) => {
    smtp.received.length = 0;
    // A first try of each busy address is refused for now: each kind has its own.
    const busyAddress = `busy-${kinds.findIndex(([name]) => name === kind)}@example.org`;
    const transport = make(settingsFor(smtp.url));
    const messageId = newMessageId('Metro Health <votes@metro.example>');
    expect(messageId).toMatch(/^<[\w-]{22}@metro\.example>$/);
    const sent = await transport.send(survey, { ...message, messageId });
    const gone = await transport.send(survey, { ...message, to: 'gone@example.org' });
    const busy = await transport.send(survey, { ...message, to: busyAddress });
    const again = await transport.send(survey, { ...message, to: busyAddress });
    transport.close();
    expect(sent).toMatchObject({ status: 'sent', messageId });
    expect(gone).toMatchObject({ status: 'rejected', permanent: true, code: 550 });
    expect(busy).toMatchObject({ status: 'rejected', permanent: false, code: 451 });
    expect(again.status).toBe('sent');
    expect(smtp.received.map((item) => item.to[0])).toEqual(['ada@example.org', busyAddress]);
    expect(smtp.received[0].mail.messageId).toBe(messageId);
    expect(smtp.received[0].mail.from?.value[0].address).toBe('votes@metro.example');
  });

  it('gives every message its own Message-ID, past the 256 its random bytes are drawn for at a time', () => {
    const ids = Array.from({ length: 600 }, () => newMessageId('votes@metro.example'));
    for (const id of ids) expect(id).toMatch(/^<[\w-]{22}@metro\.example>$/);
    expect(new Set(ids).size).toBe(600);
    // Random parts, not a counter: two neighbours share no long run of characters.
    expect(ids[255].slice(1, 12)).not.toBe(ids[256].slice(1, 12));
  });

  it.each(kinds)('says unreachable when no server listens, with no password in the reason (%s)', async (_, make) => {
    const transport = make(settingsFor('smtp://user:hunter2@127.0.0.1:1'));
    const outcome = await transport.send(survey, message);
    transport.close();
    expect(outcome.status).toBe('unreachable');
    expect(JSON.stringify(outcome)).not.toContain('hunter2');
    expect(transport.description).toBe('SMTP 127.0.0.1:1');
  });

  it('refuses a message once its thread has ended, saying so, rather than leave it waiting', async () => {
    const transport = transportThread(settingsFor(smtp.url));
    expect((await transport.send(survey, message)).status).toBe('sent');
    transport.close();
    await expect(
      (async () => {
        // The thread ends once its pool has closed: until then a message may still go.
        for (;;) await transport.send(survey, message);
      })(),
    ).rejects.toThrow("The mail transport's thread stopped with code 0.");
  });

  it('requires MAIL_FROM with SMTP_URL, and a readable SMTP_URL', () => {
    expect(() => readServerConfig({ SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/MAIL_FROM/);
    expect(() => readServerConfig({ SMTP_URL: 'http://x', MAIL_FROM: 'a@b.example' })).toThrow(/SMTP_URL/);
  });

  it('waits 5, 15, 40 and 90 s before the tries of a message refused for now, or what MAIL_RETRY_WAITS says, within bounds', () => {
    expect(readServerConfig({}).mail.retryWaitsMs).toEqual([5_000, 15_000, 40_000, 90_000]);
    expect(readServerConfig({ MAIL_RETRY_WAITS: ' 60, 300 ,1800 ' }).mail.retryWaitsMs).toEqual([60_000, 300_000, 1_800_000]);
    expect(readServerConfig({ MAIL_RETRY_WAITS: '0.25' }).mail.retryWaitsMs).toEqual([250]);
    for (const wrong of ['5,,15', '-1', 'soon', '3601', `${'1,'.repeat(10)}1`, '1e3'])
      expect(() => readServerConfig({ MAIL_RETRY_WAITS: wrong }), wrong).toThrow(
        /^Environment variable MAIL_RETRY_WAITS: expected seconds to wait before each new try/,
      );
    // A long value is not echoed whole, nor its control characters as they are.
    expect(() => readServerConfig({ MAIL_RETRY_WAITS: '9'.repeat(100_000) })).toThrow(/got "9{57}\.\.\."$/);
    expect(() => readServerConfig({ MAIL_RETRY_WAITS: '5\u001b[2J' })).toThrow(/got "5\\u001b\[2J"$/);
  });
});
