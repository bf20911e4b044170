import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_QUERY, demoBallot, startApi, type Api, type Fields } from './helpers.ts';
import { runResults } from '../support/results-cli.ts';
import { copySurveys, editSurvey } from '../support/survey-fixture.ts';
import { describeEscaped, escapedWords, nomineeTexts, siteBrand, type Sample } from '../support/pseudo-locale.ts';

// The API's words to a voter, and a survey's mail, in the pseudo-locale `en-XA` that the test
// build adds (PSEUDO_LOCALE=1, src/i18n/pseudo.ts): no plain word of four or more letters
// outside the ⟦ ⟧ markers, as tests/e2e/pseudo-locale.spec.ts checks the pages.

let api: Api;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.stop();
});

const XA_QUERY = { ...DEMO_QUERY, lang: 'en-XA' };

/** What the voter typed, exempt wherever it comes back, with the demo's nominees and the site's brand. */
const TYPED = { first: 'Ada', last: 'Quill', email: 'not-an-address', license: '12', practice: 'Xu Li Clinic' };
const EXEMPT = () => [...nomineeTexts(path.join(inject('surveysDir'), 'top-doctors-demo')), ...Object.values(TYPED), siteBrand(inject('surveysDir'))];

/** Every text of a JSON answer, by its path; a problem's `path` (a field's name) and a `code` are keys for a program, not words. */
function jsonTexts(value: unknown, where: string): Sample[] {
  if (typeof value === 'string') return [{ where, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => jsonTexts(item, `${where}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => (key === 'path' || key === 'code' || key === 'error' ? [] : jsonTexts(item, `${where}.${key}`)));
  return [];
}

/** A page's text as a reader sees it: its title and body without tags, styles or scripts. */
function htmlText(html: string): string {
  return html
    .replace(/<(style|script)\b[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&rsquo;/g, '’')
    .replace(/&[a-z]+;/g, ' ');
}

function expectNoneEscaped(samples: Sample[]): void {
  expect(describeEscaped(escapedWords(samples, EXEMPT())), 'plain words outside the pseudo-locale markers').toBe('');
}

/** Demo ballot `n` with some of its answers replaced, and its votes left out when `votes` is false. */
function ballot(n: number, changes: Record<string, string>, votes = true): Fields {
  return demoBallot(n)
    .filter(([name]) => votes || !name.startsWith('nominations['))
    .filter(([name]) => !(name in changes) || changes[name] !== '')
    .map(([name, value]) => [name, name in changes ? changes[name]! : value]);
}

const WRONG = {
  'name-first': TYPED.first,
  'name-last': '',
  email: TYPED.email,
  'medical-license': TYPED.license,
  'medical-practice': TYPED.practice,
  affirm: '',
};

describe('the API in en-XA', () => {
  test('refuses a ballot with every problem in the pseudo-locale: its message and each field by its label', async () => {
    const refused = await api.post(ballot(1, WRONG, false), { query: XA_QUERY });
    expect(refused.status).toBe(422);
    // The refusal names each problem: the last name, the address, the licence and the affirmation, at least.
    expect(refused.body.problems.length).toBeGreaterThanOrEqual(4);
    expectNoneEscaped(jsonTexts(refused.body, 'the refusal'));
  });

  test('without JavaScript, the problems page is in the pseudo-locale', async () => {
    const page = await api.post(ballot(2, WRONG, false), { query: XA_QUERY, headers: { Accept: 'text/html', Origin: api.url } });
    expect(page.status).toBe(422);
    expect(page.body).toContain('<html lang="en-XA">');
    expect(page.body).toContain('<li>');
    expectNoneEscaped([{ where: 'the problems page', text: htmlText(page.body) }]);
  });

  test('a second ballot from a personal link, and a receipt check, are answered in the pseudo-locale', async () => {
    const query = { ...XA_QUERY, secret: 'k7Qm2RzX4pWv' };
    expect((await api.post(ballot(3, {}), { query })).status).toBe(201);
    const again = await api.post(ballot(3, {}), { query });
    expect(again.status).toBe(409);
    const receipt = await api.request('/api/survey/receipt/top-doctors-demo?lang=en-XA&code=ZZZZ-ZZZZ-ZZZZ', { headers: { Accept: 'text/html' } });
    const checked = String(receipt.body);
    expect(checked).toContain('<html lang="en-XA">');
    expectNoneEscaped([...jsonTexts(again.body, 'the second ballot'), { where: 'the receipt check page', text: htmlText(checked) }]);
  });

  test('an unknown personal link, an expired survey, a code that is none and a survey that is none are refused in the pseudo-locale', async () => {
    const refusals = {
      'an unknown link': await api.get('/api/survey/link/top-doctors-demo?secret=not-a-secret-of-anyone&lang=en-XA'),
      'an expired survey': await api.request('/api/survey/link/top-doctors-demo?secret=k7Qm2RzX4pWv&lang=en-XA', {
        headers: { 'X-Peervote-Now': '2100-01-01T00:00:00Z' },
      }),
      'a code that is none': await api.get('/api/survey/receipt/top-doctors-demo/not-a-code?lang=en-XA'),
      'a survey that is none': await api.get('/api/survey/receipt/no-such-survey/ZZZZ-ZZZZ-ZZZZ?lang=en-XA'),
    };
    expect(Object.values(refusals).map((answer) => answer.status)).toEqual([404, 410, 400, 404]);
    expectNoneEscaped(Object.entries(refusals).flatMap(([what, answer]) => jsonTexts(answer.body, what)));
  });
});

describe('an invitation', () => {
  test('to a person whose roster language is en-XA is in the pseudo-locale: subject, text and HTML', async () => {
    const surveys = copySurveys();
    editSurvey(surveys, 'top-doctors-demo', ['roster_columns'], ['language']);
    const roster = path.join(surveys, 'roster.csv');
    writeFileSync(roster, `email,name-first,name-last,language\nxa@example.org,${TYPED.first},${TYPED.last},en-XA\n`);
    const env = { SURVEYS_DIR: surveys, DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl };
    const invited = await runResults(['invite', 'top-doctors-demo', '--roster', roster, '--base-url', 'https://vote.example.org'], env);
    expect(invited.code, invited.stderr).toBe(0);

    const preview = await runResults(['send', 'top-doctors-demo', 'invitations', '--preview', 'xa@example.org', '--base-url', 'https://vote.example.org'], env);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toMatch(/https:\/\/vote\.example\.org\/en-XA\/top-doctors-demo\/[\w-]+/);
    // The preview: the headers, a blank line, the text, then the HTML after its own line.
    const blank = preview.stdout.indexOf('\n\n');
    const [text = '', html = ''] = preview.stdout.slice(blank + 2).split('\n--- HTML ---\n');
    const subject = /^Subject: (.*)$/m.exec(preview.stdout.slice(0, blank))?.[1] ?? '';
    expect(subject).toContain('⟦');
    expect(html).toContain('<');
    expectNoneEscaped([
      { where: 'the subject', text: subject },
      { where: 'the text', text },
      { where: 'the HTML', text: htmlText(html) },
    ]);
  });
});
