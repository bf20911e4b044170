import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startApi, type Api, type Fields } from './helpers.ts';
import { startSmtp, type TestSmtp } from '../support/smtp.ts';

let api: Api;
let smtp: TestSmtp;

const T0 = Date.parse('2030-01-01T09:00:00Z');
/** The X-Peervote-Now header `minutes` after the test clock's start. */
const at = (minutes: number) => ({ 'X-Peervote-Now': new Date(T0 + minutes * 60_000).toISOString() });

/** A ballot of the peer-check-like test surveys. */
function ballot(first = 'Ana', nominee = 'c-2'): Fields {
  return [
    ['name-first', first],
    ['name-last', 'Tester'],
    ['nominations[Medicine][Cardiology][1]', nominee],
    ['affirm', 'on'],
  ];
}

const query = (slug: string, secret?: string) => ({ project_id: slug, project_type: 'form', ...(secret ? { secret } : {}) });

/** Posts a verification step as the page's script does: a url-encoded form, JSON back. */
function step(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return api.request(path, {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { Origin: api.url, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', ...headers },
  });
}

/** Asks for a code and reads it from the message the test SMTP server received. */
async function mailedCode(slug: string, address: string, minutes = 0): Promise<{ code: string; to: string; sentTo: string }> {
  const before = smtp.received.length;
  const sent = await step(`/api/survey/verify/${slug}`, { address }, at(minutes));
  expect(sent.status, JSON.stringify(sent.body)).toBe(202);
  const [message] = (await smtp.waitFor(before + 1)).slice(before);
  const code = /(\d{6})/.exec(message.mail.subject ?? '')?.[1] ?? '';
  expect(message.mail.text).toContain(code);
  return { code, to: message.to[0], sentTo: sent.body.sent_to };
}

/** The proof for a code, from the check step. */
async function proofFor(slug: string, address: string, code: string, minutes = 0): Promise<string> {
  const checked = await step(`/api/survey/verify/${slug}/code`, { address, code }, at(minutes));
  expect(checked.status, JSON.stringify(checked.body)).toBe(200);
  return checked.body.proof;
}

beforeAll(async () => {
  smtp = await startSmtp();
  api = await startApi({ SMTP_URL: smtp.url, MAIL_FROM: 'Votes <votes@peervote.test>' });
});
afterAll(async () => {
  await api?.stop();
  await smtp?.close();
});

describe('verify: email', () => {
  test('a code mailed and accepted: the ballot counts as that address’s, and a second one from it is refused', async () => {
    const { code, to, sentTo } = await mailedCode('verify-email', ' Ada@Example.org ');
    expect(to).toBe('ada@example.org');
    expect(sentTo).toBe('a•••@e•••.org');
    expect(code).toMatch(/^\d{6}$/);
    const proof = await proofFor('verify-email', 'ada@example.org', code);
    const stored = await api.post([...ballot(), ['verification', proof]], { query: query('verify-email'), headers: at(1) });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    const row = await api.db().selectFrom('ballots').selectAll().where('id', '=', stored.body.ballot_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ link: 'public', personal_secret: null, verified_email: 'ada@example.org', replaced_by: null });

    // The same code proves nothing twice; a new code gives a new proof, and the address has voted.
    const reused = await step('/api/survey/verify/verify-email/code', { address: 'ada@example.org', code }, at(2));
    expect(reused.status).toBe(410);
    const again = await mailedCode('verify-email', 'ada@example.org', 2);
    const second = await api.post([...ballot('Ann'), ['verification', await proofFor('verify-email', 'ada@example.org', again.code, 2)]], {
      query: query('verify-email'),
      headers: at(3),
    });
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('already_submitted');
    expect(second.body.message).toContain('A ballot has already been received from this address.');
  });

  test('an address or a code holding a NUL character is refused 400 invalid_text, and no code is mailed', async () => {
    const before = smtp.received.length;
    const sent = await step('/api/survey/verify/verify-email', { address: 'nul\u0000@example.org' }, at(200));
    expect(sent.status, JSON.stringify(sent.body)).toBe(400);
    expect(sent.body).toMatchObject({ error: 'invalid_text', problems: [{ path: 'address' }] });
    const checked = await step('/api/survey/verify/verify-email/code', { address: 'nul@example.org', code: '12\u00003456' }, at(200));
    expect(checked.status, JSON.stringify(checked.body)).toBe(400);
    expect(checked.body).toMatchObject({ error: 'invalid_text', problems: [{ path: 'code' }] });
    const codes = await api.db().selectFrom('verification_codes').select('id').execute();
    expect(await step('/api/survey/verify/verify-email', { address: 'after-nul@example.org' }, at(201))).toMatchObject({ status: 202 });
    expect((await smtp.waitFor(before + 1)).length).toBe(before + 1);
    expect((await api.db().selectFrom('verification_codes').select('id').execute()).length).toBe(codes.length + 1);
  });

  test('without a proof, or with a forged one, a public ballot is refused 403 verification_required and kept in refused', async () => {
    const bare = await api.post(ballot('Bo'), { query: query('verify-email'), headers: at(5) });
    expect(bare.status).toBe(403);
    expect(bare.body.error).toBe('verification_required');
    const forged = await api.post([...ballot('Bo'), ['verification', 'eyJwIjoidmVyaWZ5LWVtYWlsIn0.forged']], { query: query('verify-email'), headers: at(5) });
    expect(forged.status).toBe(403);
    const kept = await api.db().selectFrom('refused_ballots').select('reason').where('project_id', '=', 'verify-email').execute();
    expect(kept.map((row) => row.reason)).toContain('verification_required');
    const stored = await api.db().selectFrom('ballots').select('id').where('project_id', '=', 'verify-email').where('verified_email', 'is', null).execute();
    expect(stored).toEqual([]);
  });

  test('a proof for one survey does not open another', async () => {
    const { code } = await mailedCode('verify-amend', 'cy@example.org', 6);
    const proof = await proofFor('verify-amend', 'cy@example.org', code, 6);
    const elsewhere = await api.post([...ballot('Cy'), ['verification', proof]], { query: query('verify-email'), headers: at(7) });
    expect(elsewhere.status).toBe(403);
  });

  test('after the 5th wrong code every code of the address is refused until a new one is sent', async () => {
    const { code } = await mailedCode('verify-email', 'dee@example.org', 10);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await step('/api/survey/verify/verify-email/code', { address: 'dee@example.org', code: wrong }, at(10))).status);
    expect(answers).toEqual([422, 422, 422, 422, 403]);
    const right = await step('/api/survey/verify/verify-email/code', { address: 'dee@example.org', code }, at(11));
    expect(right.status).toBe(403);
    expect(right.body).toMatchObject({ error: 'too_many_tries', message: 'Too many tries: ask for a new code.' });
    const fresh = await mailedCode('verify-email', 'dee@example.org', 12);
    expect(await proofFor('verify-email', 'dee@example.org', fresh.code, 12)).toContain('.');
  });

  test('a code is valid for 15 minutes', async () => {
    const { code } = await mailedCode('verify-email', 'eve@example.org', 20);
    const late = await step('/api/survey/verify/verify-email/code', { address: 'eve@example.org', code }, at(35.5));
    expect(late.status).toBe(410);
    expect(late.body.error).toBe('code_expired');
  });

  test('an address that is no address is refused, and nothing is mailed', async () => {
    const before = smtp.received.length;
    const bad = await step('/api/survey/verify/verify-email', { address: 'not an address' }, at(40));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('bad_address');
    const off = await step('/api/survey/verify/peer-check', { address: 'ada@example.org' }, at(40));
    expect(off.status).toBe(404);
    expect(smtp.received.length).toBe(before);
  });
});

describe('amend: until_close', () => {
  test('a verified voter’s second ballot replaces the first; the old receipt says so', async () => {
    const first = await api.post(
      [
        ...ballot('Fay', 'c-2'),
        ['verification', await proofFor('verify-amend', 'fay@example.org', (await mailedCode('verify-amend', 'fay@example.org', 50)).code, 50)],
      ],
      {
        query: query('verify-amend'),
        headers: at(51),
      },
    );
    expect(first.status).toBe(201);
    expect(first.body.replaced_sent_at).toBeUndefined();
    const proof = await proofFor('verify-amend', 'fay@example.org', (await mailedCode('verify-amend', 'fay@example.org', 52)).code, 52);
    const second = await api.post([...ballot('Fay', 'c-3'), ['verification', proof]], { query: query('verify-amend'), headers: at(53) });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.replaced_sent_at).toBe(new Date(T0 + 51 * 60_000).toISOString());
    const rows = await api
      .db()
      .selectFrom('ballots')
      .select(['id', 'replaced_by'])
      .where('verified_email', '=', 'fay@example.org')
      .orderBy('created_at')
      .execute();
    expect(rows).toEqual([
      { id: first.body.ballot_id, replaced_by: second.body.ballot_id },
      { id: second.body.ballot_id, replaced_by: null },
    ]);
    const old = await api.get(`/api/survey/receipt/verify-amend/${first.body.receipt}`);
    expect(old.body).toEqual({ received: true, received_at: new Date(T0 + 51 * 60_000).toISOString(), replaced_at: new Date(T0 + 53 * 60_000).toISOString() });
    const page = await api.get(`/api/survey/receipt/verify-amend?code=${first.body.receipt}`, { Accept: 'text/html' });
    expect(page.body).toContain('replaced by a later ballot on 1 January 2030 at 09:53 UTC');
  });

  test('a personal link sends again and replaces its ballot; without amend it is refused', async () => {
    const secret = 'sec-ana-R7kw2Pq';
    const first = await api.post(ballot('Ana'), { query: query('verify-amend', secret), headers: at(60) });
    const second = await api.post(ballot('Ana', 'c-4'), { query: query('verify-amend', secret), headers: at(61) });
    expect([first.status, second.status]).toEqual([201, 201]);
    const current = await api
      .db()
      .selectFrom('ballots')
      .select('id')
      .where('personal_secret', '=', secret)
      .where('project_id', '=', 'verify-amend')
      .where('replaced_by', 'is', null)
      .execute();
    expect(current).toEqual([{ id: second.body.ballot_id }]);
    // The link reopens on its last ballot, for its holder.
    const link = await api.get(`/api/survey/link/verify-amend?secret=${secret}`, at(62));
    expect(link.status).toBe(200);
    expect(link.body.last_ballot).toMatchObject({
      sent_at: new Date(T0 + 61 * 60_000).toISOString(),
      answers: { 'name-first': 'Ana', 'name-last': 'Ferreira' },
      nominations: { 'nominations[Medicine][Cardiology][1]': 'c-4' },
      nominees: { 'c-4': 'Dana Kowalski' },
    });
  });
});

describe('verify: roster', () => {
  test('a licence number finds the invited person: the code goes to their roster address, the ballot counts as their personal link’s', async () => {
    const { to, sentTo, code } = await mailedCode('verify-roster', 'NPI 1234567893', 70);
    expect(to).toBe('jane@north.org');
    expect(sentTo).toBe('j•••@n•••.org');
    const proof = await proofFor('verify-roster', '1234567893', code, 70);
    const stored = await api.post([...ballot('Jane'), ['verification', proof]], { query: query('verify-roster'), headers: at(71) });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    const row = await api.db().selectFrom('ballots').selectAll().where('id', '=', stored.body.ballot_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ link: 'personal', personal_secret: 'sec-jane-Q8vN2kLp', verified_email: 'jane@north.org' });
    // One ballot per person across both ways in.
    const byLink = await api.post(ballot('Jane'), { query: query('verify-roster', 'sec-jane-Q8vN2kLp'), headers: at(72) });
    expect(byLink.status).toBe(409);
  });

  test('an address finds the invited person too', async () => {
    const { to } = await mailedCode('verify-roster', 'Omar@South.org', 75);
    expect(to).toBe('omar@south.org');
  });

  test('no match: a clear message with the publication’s contact, and no code sent', async () => {
    const before = smtp.received.length;
    const none = await step('/api/survey/verify/verify-roster', { address: 'MD-0000' }, at(80));
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ error: 'no_match', contact: 'votes@peervote.test' });
    expect(none.body.message).toContain('votes@peervote.test');
    const badNpi = await step('/api/survey/verify/verify-roster', { address: '1234567890' }, at(80));
    expect(badNpi.status).toBe(400);
    expect(badNpi.body.error).toBe('bad_licence');
    expect(smtp.received.length).toBe(before);
  });
});

describe('without JavaScript', () => {
  test('the steps are forms: a page asks for the code, the right code sets the proof and leads back, the ballot ends on the thank-you page', async () => {
    const page = { Accept: 'text/html', 'Sec-Fetch-Mode': 'navigate', Origin: api.url };
    const before = smtp.received.length;
    const asked = await api.request('/api/survey/verify/verify-email', {
      method: 'POST',
      body: new URLSearchParams({ address: 'gil@example.org' }),
      headers: { ...page, 'Content-Type': 'application/x-www-form-urlencoded', ...at(90) },
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toContain('<label for="code">Code</label>');
    expect(asked.body).toContain('autocomplete="one-time-code"');
    const [message] = (await smtp.waitFor(before + 1)).slice(before);
    const code = /(\d{6})/.exec(message.mail.subject ?? '')![1];
    const checked = await fetch(`${api.url}/api/survey/verify/verify-email/code`, {
      method: 'POST',
      body: new URLSearchParams({ address: 'gil@example.org', code }),
      headers: { ...page, 'Content-Type': 'application/x-www-form-urlencoded', ...at(91) },
      redirect: 'manual',
    });
    expect(checked.status).toBe(303);
    expect(checked.headers.get('location')).toBe(`${api.url}/verify-email/#ballot`);
    const cookie = checked.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^peervote_verified=[^;]+; Path=\/api\/survey; Max-Age=86400; HttpOnly; SameSite=Lax/);
    const form = new FormData();
    for (const [name, value] of ballot('Gil')) form.append(name, value as string);
    const sent = await fetch(`${api.url}/api/survey?project_id=verify-email&project_type=form`, {
      method: 'POST',
      body: form,
      headers: { ...page, Cookie: cookie.split(';')[0], ...at(92) },
      redirect: 'manual',
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${api.url}/verify-email/thankyou`);
    const row = await api.db().selectFrom('ballots').select('verified_email').where('verified_email', '=', 'gil@example.org').executeTakeFirst();
    expect(row).toEqual({ verified_email: 'gil@example.org' });
  });
});
