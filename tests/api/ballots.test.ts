import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO_QUERY, SINK_QUERY, demoBallot, rowCounts, sinkBallot, startApi, type Api, type Fields } from './helpers.ts';

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api?.stop());

const pathsOf = (body: { problems: Array<{ path: string }> }) => body.problems.map((p) => p.path);
const messageFor = (body: { problems: Array<{ path: string; message: string }> }, path: string) => body.problems.find((p) => p.path === path)?.message;

describe('a valid ballot', () => {
  test('is stored with its answers, nominations and write-in, and answered with a receipt', async () => {
    const { status, body } = await api.post(demoBallot(1));
    expect(status).toBe(201);
    expect(body).toEqual({ ballot_id: expect.stringMatching(/^[0-9a-f-]{36}$/), receipt: expect.stringMatching(/^[0-9A-Z]{12}$/), reservations: [] });
    const db = api.db();
    const ballot = await db.selectFrom('ballots').selectAll().where('id', '=', body.ballot_id).executeTakeFirstOrThrow();
    expect(ballot).toMatchObject({ project_id: 'top-doctors-demo', link: 'public', personal_secret: null, receipt: body.receipt });
    const nominations = await db.selectFrom('nominations').selectAll().where('ballot_id', '=', body.ballot_id).execute();
    expect(nominations).toHaveLength(8);
    const writeIns = await db.selectFrom('write_ins').selectAll().where('ballot_id', '=', body.ballot_id).execute();
    expect(writeIns).toEqual([expect.objectContaining({ category_group: 'Surgery', subcategory: 'Neurosurgery', position: 0 })]);
    const answers = await db.selectFrom('answers').select(['field', 'value']).where('ballot_id', '=', body.ballot_id).execute();
    expect(answers).toEqual(
      expect.arrayContaining([
        { field: 'medical-credential', value: 'DO' },
        { field: 'name-first', value: 'Rajesh' },
      ]),
    );
    expect(answers.map((a) => a.field)).not.toContain('name-middle'); // blank answers are left out
  });

  test('keeps the read-only values a personal link was given, whatever the page sent', async () => {
    const { status, body } = await api.post(sinkBallot({ 'full-name': 'Mallory Forger', badge: 'B-00', email: 'grace@example.org' }), {
      query: { ...SINK_QUERY, secret: 'ks-grace-7Qw2' },
    });
    expect(status).toBe(201);
    const answers = await api.db().selectFrom('answers').select(['field', 'value']).where('ballot_id', '=', body.ballot_id).execute();
    expect(answers).toEqual(
      expect.arrayContaining([
        { field: 'full-name', value: 'Grace Hopper' },
        { field: 'badge', value: 'B-77' },
        { field: 'email', value: 'grace@example.org' },
      ]),
    );
    // On the public link the disabled field has no value to give, and takes none.
    const open = await api.post(sinkBallot({ badge: 'B-00' }), { query: SINK_QUERY });
    expect(open.status).toBe(201);
    const badge = await api.db().selectFrom('answers').select('value').where('ballot_id', '=', open.body.ballot_id).where('field', '=', 'badge').execute();
    expect(badge).toEqual([]);
  });

  test('of the kitchen-sink survey takes every kind of field', async () => {
    const { status } = await api.post(
      sinkBallot({
        nickname: 'Ada',
        shift: 'Night',
        mood: 'Good',
        years: '11+',
        notes: 'x',
        'interests[other-answer]': 'Chess',
        'writeins[0][name]': 'Dr. Wu',
        'writeins[0][category]': 'Surgery / Neurosurgery',
      }).concat([['interests', 'Other']]),
      { query: SINK_QUERY },
    );
    expect(status).toBe(201);
  });
});

describe('a ballot that breaks the rules', () => {
  let before: Record<string, number>;
  beforeAll(async () => {
    before = await rowCounts(api.db());
  });
  afterAll(async () => {
    // Not one of the refused ballots below left a row anywhere.
    expect(await rowCounts(api.db())).toEqual(before);
  });

  test('is refused with every offending field named, in the agreed messages', async () => {
    const fields: Fields = [
      ['full-name', '   '],
      ['email', 'not-an-email'],
      ['role', 'Chief'],
      ['shift', 'Dusk'],
      ['interests', 'Research'],
      ['interests', 'Knitting'],
      ['nickname', 'much too long a nickname'],
      ['nominations[Medicine][Cardiology][1]', 'n-1'],
    ];
    const { status, body } = await api.post(fields, { query: SINK_QUERY });
    expect(status).toBe(422);
    expect(body.error).toBe('invalid_ballot');
    expect(messageFor(body, 'full-name')).toBe('Full name is required.');
    expect(messageFor(body, 'email')).toBe('Email is not valid. Enter an address like name@example.org.');
    expect(messageFor(body, 'role')).toBe('Role must be one of the options shown.');
    expect(messageFor(body, 'shift')).toBe('Shift must be one of the options shown.');
    expect(messageFor(body, 'interests')).toBe('Interests must be one of the options shown.');
    expect(messageFor(body, 'nickname')).toBe('Keep the nickname short.');
    expect(messageFor(body, 'nomination')).toBe('You must fill out at least 2 names to submit this form.');
    expect(messageFor(body, 'affirm')).toBe('Tick “I Affirm” to confirm the statements above.');
  });

  test('says "name" when one name is required', async () => {
    const { status, body } = await api.post(demoBallot(2).filter(([name]) => !name.startsWith('nominations') && !name.startsWith('writeins')));
    expect(status).toBe(422);
    expect(body.problems).toEqual([{ path: 'nomination', message: 'You must fill out at least 1 name to submit this form.' }]);
  });

  test('unknown fields, a slot past votes_per_category and an unknown category are refused', async () => {
    const { status, body } = await api.post(
      sinkBallot({ 'is-admin': 'yes', 'nominations[Medicine][Cardiology][3]': 'n-3', 'nominations[Pharmacy][Drugs][1]': 'n-4' }),
      { query: SINK_QUERY },
    );
    expect(status).toBe(422);
    expect(pathsOf(body).sort()).toEqual(['is-admin', 'nominations[Medicine][Cardiology][3]', 'nominations[Pharmacy][Drugs][1]']);
    expect(messageFor(body, 'is-admin')).toBe('is not a field of this ballot.');
  });

  test('wrong types are refused: a file for a text, a text given twice', async () => {
    const { status, body } = await api.post(
      sinkBallot({ 'full-name': { name: 'x.txt', type: 'text/plain', data: new Uint8Array([65]) } }).concat([['email', 'b@example.org']]),
      { query: SINK_QUERY },
    );
    expect(status).toBe(422);
    expect(messageFor(body, 'full-name')).toBe('expected a text, got a file');
    expect(messageFor(body, 'email')).toBe('expected a text, got a list');
  });

  test('the same nominee twice in one sub-category is refused', async () => {
    const { status, body } = await api.post(sinkBallot({ 'nominations[Medicine][Cardiology][2]': 'n-1' }), { query: SINK_QUERY });
    expect(status).toBe(422);
    expect(body.problems).toEqual([{ path: 'nominations[Medicine][Cardiology][2]', message: 'This nominee is already named in this category.' }]);
  });

  test('more write-ins than write_in_limit are refused, and a write-in needs a known category', async () => {
    const { status, body } = await api.post(
      sinkBallot({
        'writeins[0][name]': 'A',
        'writeins[0][category]': 'Medicine / Cardiology',
        'writeins[1][name]': 'B',
        'writeins[1][category]': 'Medicine / Nowhere',
        'writeins[2][name]': 'C',
        'writeins[2][category]': 'Surgery / Neurosurgery',
        'writeins[3][name]': 'D',
      }),
      { query: SINK_QUERY },
    );
    expect(status).toBe(422);
    expect(body.problems).toEqual(
      expect.arrayContaining([
        { path: 'writeins[2][name]', message: 'You can add at most 2 write-ins.' },
        { path: 'writeins[3][name]', message: 'You can add at most 2 write-ins.' },
        { path: 'writeins[3][category]', message: 'Choose the category of this write-in.' },
        { path: 'writeins[1][category]', message: 'Choose one of the categories.' },
      ]),
    );
  });

  test('a reservation of a tile the survey marks taken, or of no tile at all, is refused', async () => {
    const taken = await api.post(sinkBallot({ faces: 'dermatology' }), { query: SINK_QUERY });
    expect(taken.status).toBe(422);
    expect(taken.body.problems).toEqual([{ path: 'faces', message: 'Reserve Your Faces Specialty: this tile is already taken; choose another.' }]);
    const unknown = await api.post(sinkBallot({ asktheexpert: 'what-is-love' }), { query: SINK_QUERY });
    expect(unknown.body.problems).toEqual([{ path: 'asktheexpert', message: 'Reserve Your Expert Question: choose one of the tiles shown.' }]);
    const both = await api.post(sinkBallot({ faces: 'cardiology', 'faces[custom]': 'THE FACE OF Sleep' }), { query: SINK_QUERY });
    expect(both.body.problems).toEqual([{ path: 'faces[custom]', message: 'Choose a tile or write your own, not both.' }]);
  });
});

describe('the link', () => {
  test('an unknown project is refused with 404', async () => {
    const { status, body } = await api.post(demoBallot(3), { query: { ...DEMO_QUERY, project_id: 'nope' } });
    expect(status).toBe(404);
    expect(body.error).toBe('unknown_survey');
  });

  test('a project_type other than the survey’s is refused', async () => {
    const { status, body } = await api.post(demoBallot(3), { query: { ...DEMO_QUERY, project_type: 'poll' } });
    expect(status).toBe(400);
    expect(pathsOf(body)).toEqual(['project_type']);
  });

  test('without a secret or with an unknown one, an invitation-only survey refuses the ballot', async () => {
    const member: Fields = [
      ['member-name', 'M. Oyelaran-Dubois'],
      ['nominations[Specialists][Dermatology][1]', 'mc-02'],
      ['nominations[Specialists][Neurology][1]', 'mc-01'],
      ['affirm', 'on'],
    ];
    const query = { project_id: 'members-choice-2027', project_type: 'form' };
    const none = await api.post(member, { query });
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ error: 'invalid_link', message: 'Sorry, this link is invalid! Please use your custom link to access your survey form.' });
    const unknown = await api.post(member, { query: { ...query, secret: 'guessed' } });
    expect(unknown.status).toBe(403);
    const known = await api.post(member, { query: { ...query, secret: 'Zp4Wq8Kd2Lx6' } });
    expect(known.status).toBe(201);
  });

  test('an unknown secret is refused even where blank ballots are allowed', async () => {
    const { status } = await api.post(demoBallot(4), { query: { ...DEMO_QUERY, secret: 'not-a-secret' } });
    expect(status).toBe(403);
  });

  test('after expiration_date the ballot is refused with a clear error; before it, taken', async () => {
    const dentist: Fields = [
      ['full-name', 'Dr. Tooth'],
      ['email', 'tooth@example.org'],
      ['nominations[Dentistry][Orthodontics][1]', 'bd2-01'],
    ];
    const query = { project_id: 'best-dentists-2024', project_type: 'form' };
    const late = await api.post(dentist, { query });
    expect(late.status).toBe(410);
    expect(late.body).toEqual({ error: 'expired', message: 'Survey form has expired!', problems: [] });
    const onTime = await api.post(dentist, { query, headers: { 'X-Peervote-Now': '2025-01-31T23:00:00Z' } });
    expect(onTime.status).toBe(201);
  });
});
