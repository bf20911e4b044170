import { describe, expect, test } from 'vitest';
import { jsonReply, pageReply } from '../../../src/server/intake/ballot-post.ts';
import { refused, tryLater, type IntakeOutcome, type RefusalCode, type TryLater } from '../../../src/server/intake/intake-outcome.ts';
import type { ServerSurvey } from '../../../src/server/surveys.ts';
import type { BallotReceipt } from '../../../src/survey/api/api-replies.ts';
import type { FieldDef } from '../../../src/survey/config/field.struct.ts';

// What became of a ballot, said in HTTP at the edge (docs/api.md, "Errors"): one row per answer
// the API gives to POST /api/survey.

const receipt: BallotReceipt = {
  ballot_id: '01900000-0000-7000-8000-000000000001',
  receipt: 'K7QM2RZX4PWV',
  reservations: [{ field: 'faces', tile: 'ana-ferreira', status: 'reserved' }],
};

/** Every refusal code with the status docs/api.md gives it; `satisfies` fails the type check when a code is added without a row. */
const REFUSAL_STATUSES = {
  bad_query: 400,
  bad_idempotency_key: 400,
  malformed_body: 400,
  invalid_text: 400,
  invalid_link: 403,
  verification_required: 403,
  unknown_survey: 404,
  already_submitted: 409,
  expired: 410,
  body_too_large: 413,
  unsupported_media_type: 415,
  invalid_ballot: 422,
  idempotency_key_reused: 422,
} satisfies Record<RefusalCode, number>;

const WAIT_STATUSES = { request_in_progress: 409, rate_limited: 429, burst: 429 } satisfies Record<TryLater['code'], number>;

const problems = [{ path: 'email', message: 'Email is not valid. Enter an address like name@example.org.' }];

/** An outcome, and the JSON reply's status, the headers it must carry (null: must not) and its body. */
interface Row {
  name: string;
  outcome: IntakeOutcome;
  status: number;
  headers: Record<string, string | null>;
  body: unknown;
}

const NO_EXTRAS = { 'Idempotent-Replayed': null, 'Retry-After': null, Connection: null };

const rows: Row[] = [
  { name: 'a stored ballot', outcome: { kind: 'stored', slug: 'top-doctors-demo', receipt }, status: 201, headers: NO_EXTRAS, body: receipt },
  {
    name: 'a replay under the same Idempotency-Key',
    outcome: { kind: 'duplicate', slug: 'top-doctors-demo', receipt },
    status: 201,
    headers: { ...NO_EXTRAS, 'Idempotent-Replayed': 'true' },
    body: receipt,
  },
  ...Object.entries(REFUSAL_STATUSES).map(
    ([code, status]): Row => ({
      name: `refused: ${code}`,
      outcome: refused(code as RefusalCode, `Refused for ${code}.`, problems),
      status,
      headers: code === 'body_too_large' ? { ...NO_EXTRAS, Connection: 'close' } : NO_EXTRAS,
      body: { error: code, message: `Refused for ${code}.`, problems },
    }),
  ),
  ...Object.entries(WAIT_STATUSES).map(
    ([code, status]): Row => ({
      name: `try later: ${code}, after 7 seconds`,
      outcome: tryLater(code as TryLater['code'], 'Later, please.', 7),
      status,
      headers: { ...NO_EXTRAS, 'Retry-After': '7' },
      body: { error: code, message: 'Later, please.', problems: [] },
    }),
  ),
  {
    name: 'try later without a known wait',
    outcome: tryLater('request_in_progress', 'This ballot is still being received; try again in a moment.'),
    status: 409,
    headers: NO_EXTRAS,
    body: { error: 'request_in_progress', message: 'This ballot is still being received; try again in a moment.', problems: [] },
  },
];

/** A survey as the page reply reads it: its slug, title and the labels of its fields. */
const survey = {
  slug: 'kitchen-sink',
  config: {
    survey_title: 'Kitchen & Sink Awards',
    layout: [[{ name: 'nickname', type: 'text', label: 'Nickname' } as FieldDef]],
  },
} as unknown as ServerSurvey;

const post = (origin: string) => new Request('http://127.0.0.1:4321/api/survey?project_id=kitchen-sink', { method: 'POST', headers: { Origin: origin } });

describe('a ballot outcome as the JSON reply', () => {
  test.each(rows)('$name: $status', async ({ outcome, status, headers, body }) => {
    const reply = jsonReply(outcome);
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    for (const [name, value] of Object.entries(headers)) expect(reply.headers.get(name), name).toBe(value);
    expect(await reply.json()).toEqual(body);
  });
});

describe('a ballot outcome as the reply to a form posted without JavaScript', () => {
  test.each([
    ['the site’s own page (Origin: null)', 'null', 'http://127.0.0.1:4321/kitchen-sink/thankyou'],
    ['an allowed origin', 'https://vote.example.org', 'https://vote.example.org/kitchen-sink/thankyou'],
  ])('a stored or replayed ballot goes on to the thank-you page, from %s', (_, origin, location) => {
    for (const kind of ['stored', 'duplicate'] as const) {
      const reply = pageReply({ kind, slug: 'kitchen-sink', receipt }, post(origin), survey);
      expect(reply.status).toBe(303);
      expect(reply.headers.get('location')).toBe(location);
      expect(reply.headers.get('cache-control')).toBe('no-store');
    }
  });

  test.each(rows.filter((row) => row.status !== 201))('$name: a page with the JSON reply’s status and headers', ({ outcome, status, headers }) => {
    const reply = pageReply(outcome, post('null'), survey);
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    for (const [name, value] of Object.entries(headers)) expect(reply.headers.get(name), name).toBe(value);
  });

  test.each<[string, IntakeOutcome, string]>([
    ['a refusal for a rule', refused('invalid_ballot', 'Some answers need another look.', problems), 'There is a problem'],
    ['a used personal link', refused('already_submitted', 'Already.', []), 'This ballot has been received already'],
    ['an expired survey', refused('expired', 'Survey form has expired!'), 'Survey form has expired!'],
    ['too many ballots', tryLater('rate_limited', 'Too many.', 59), 'Your ballot could not be sent just now'],
    ['the same ballot still being received', tryLater('request_in_progress', 'In flight.', 1), 'Your ballot could not be sent just now'],
  ])('%s is headed “%s”', async (_, outcome, title) => {
    const html = await pageReply(outcome, post('null'), survey).text();
    expect(html).toContain(`<h2>${title}</h2>`);
    expect(html).toContain('<title>');
    expect(html).toContain('Kitchen &amp; Sink Awards');
  });

  test('the problems in the voter’s words, by field label, escaped; none for what is no field; the way back to the ballot', async () => {
    const outcome = refused('invalid_ballot', 'Some answers need another look.', [
      { path: 'nickname', message: 'must be <b>short</b>.' },
      { path: 'nominations[Medicine][Cardiology][2]', message: 'is not on the list.' },
      { path: 'writeins[0][name]', message: 'is blank.' },
      { path: 'affirm', message: 'is required.' },
      { path: 'Idempotency-Key', message: 'is not valid.' },
      ...problems,
    ]);
    const html = await pageReply(outcome, post('null'), survey).text();
    expect(html).toContain(
      '<ul><li>Nickname: must be &lt;b&gt;short&lt;/b&gt;.</li><li>Cardiology, choice 2: is not on the list.</li><li>Write-in 1: is blank.</li>' +
        '<li>Affirmation: is required.</li><li>Email is not valid. Enter an address like name@example.org.</li></ul>',
    );
    expect(html).not.toContain('Idempotency-Key');
    expect(html).toContain('<a class="button" href="/kitchen-sink/">Open a new ballot</a>');
  });

  test('a survey the query does not name: the page says “Survey” and offers no ballot to go back to', async () => {
    const html = await pageReply(refused('unknown_survey', 'There is no survey with this project id.'), post('null'), undefined).text();
    expect(html).toContain('<h1>Survey</h1>');
    expect(html).not.toContain('Open a new ballot');
  });
});
