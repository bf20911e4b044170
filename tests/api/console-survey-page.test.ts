import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sql } from 'kysely';
import { writePersonMapYaml } from '../../src/survey/people/person-map-yaml.ts';
import { loadSurvey } from '../../src/survey/config/loader.ts';
import { peopleKey, replacePeople } from '../../src/server/people/people.repository.ts';
import { peopleSource, peopleSourceDigest } from '../../src/server/people/people-import.ts';
import { secretWeakness } from '../../src/survey/people/secrets.ts';
import { runResults } from '../support/results-cli.ts';
import { demoBallot } from './helpers.ts';
import { ConsoleBrowser, FOLLOWED, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';

// The survey's console page, on both databases: its invited people by a roster column the
// operator picks (the largest fifty values, the rest in one row; an unknown or hostile column
// ignored with a note), and the latest look for signals that `results signals` recorded, for
// every role on the survey.

const SLUG = 'top-doctors-demo';
const PAGE = `/console/${SLUG}/`;
const OWNER = 'owner@metrohealth.example';
const AUDITOR = 'auditor@metrohealth.example';
/** A value a page must escape, longer than the page keeps. */
const HOSTILE = `<img src=x onerror=alert(1)> ${'é'.repeat(300)}`;

/** A secret of the strength the loader asks of a personal link. */
function newSecret(): string {
  for (;;) {
    const secret = randomBytes(12).toString('base64url');
    if (!secretWeakness(secret)) return secret;
  }
}

/** The roster: 6 cardiologists in two regions, 3 paediatricians, 2 with no specialty, one with a hostile one, 54 oncologists each in a town of their own. */
const PEOPLE: Array<{ secret: string; values: Record<string, string>; votes: boolean }> = [
  ...Array.from({ length: 6 }, (_, i) => ({ specialty: 'Cardiology', region: i < 3 ? 'North' : 'South' })),
  ...Array.from({ length: 3 }, () => ({ specialty: 'Pediatrics', region: 'North' })),
  ...Array.from({ length: 2 }, () => ({ region: 'South' })),
  { specialty: HOSTILE },
  ...Array.from({ length: 54 }, (_, i) => ({ specialty: 'Oncology', region: `Town ${String(i + 1).padStart(2, '0')}` })),
].map((values, i) => ({ secret: newSecret(), values: { email: `person${i}@example.org`, ...values }, votes: i % 3 === 0 }));

/** The groups of a column as the page must count them: most people first, then in the order first met; '' for no value. */
function expectedGroups(column: string, voted: (index: number) => boolean): Array<[string, number, number]> {
  const groups = new Map<string, [string, number, number]>();
  PEOPLE.forEach((person, i) => {
    const value = (person.values[column] ?? '').slice(0, 200);
    const group = groups.get(value) ?? [value, 0, 0];
    group[1]++;
    if (voted(i)) group[2]++;
    groups.set(value, group);
  });
  return [...groups.values()].sort((a, b) => b[1] - a[1]);
}

/** A tag, its quoted attribute values whole (a `>` may stand in one). */
const TAG = /<(?:[^>"']|"[^"]*"|'[^']*')*>/g;

/** Decodes the entities Astro writes. */
const decoded = (html: string) =>
  html.replace(TAG, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&').trim();

/** The cells of each row of the page's roster table, in order (body rows, then the footer's). */
function rosterRows(html: string): string[][] {
  const table = /<table class="figures-table roster-table"[^>]*>([\s\S]*?)<\/table>/.exec(html)?.[1];
  if (!table) return [];
  const body = table.slice(table.indexOf('<tbody'));
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => decoded(cell[1])),
  );
}

/** A page's text, tags taken out and spaces folded. */
const words = (html: string) => decoded(html.replace(TAG, ' ')).replace(/\s+/g, ' ');

let server: ConsoleServer;
let owner: ConsoleBrowser;
let auditor: ConsoleBrowser;
const results = (...args: string[]) => runResults(args, { SURVEYS_DIR: server.surveysDir, DATA_DIR: server.api.dataDir, DATABASE_URL: server.api.databaseUrl });
const vote = (secret: string, n: number) => server.api.post(demoBallot(n), { query: { project_id: SLUG, project_type: 'form', secret } });

beforeAll(async () => {
  server = await startConsole(operatorsYaml({ [OWNER]: { [SLUG]: 'owner', 'members-choice': 'auditor' }, [AUDITOR]: { [SLUG]: 'auditor' } }), {}, (surveys) => {
    const survey = path.join(surveys, SLUG, 'survey.yaml');
    writeFileSync(survey, `${readFileSync(survey, 'utf8')}\nroster_columns: [specialty, region]\n`);
    const map = Object.fromEntries(PEOPLE.map((person) => [person.secret, person.values]));
    writeFileSync(path.join(surveys, SLUG, 'prepopulation.yaml'), writePersonMapYaml(map, '# The people of the console page test')!);
  });
  owner = await new ConsoleBrowser(server).enrolled(OWNER);
  auditor = await new ConsoleBrowser(server).enrolled(AUDITOR);
  for (const [i, person] of PEOPLE.entries()) {
    if (!person.votes) continue;
    const answer = await vote(person.secret, i);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  }
});
afterAll(() => server?.stop());

describe('responses by a roster column', () => {
  const voted = (i: number) => PEOPLE[i].votes;

  test('the first column by default: each value with its invited, responded and pending people and their share, largest first, a value escaped', async () => {
    const page = await owner.page(PAGE);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<select class="input" id="roster-column" name="by">\s*<option value="specialty" selected>/);
    expect(page.body).toContain('<option value="region">');
    const rows = rosterRows(page.body);
    const expected = expectedGroups('specialty', voted).map(([value, invited, responded]) => [
      value === '' ? 'no value' : value,
      String(invited),
      String(responded),
      String(invited - responded),
      `${Math.floor((responded / invited) * 100)}%`,
    ]);
    const everyone = PEOPLE.length;
    const responded = PEOPLE.filter((person) => person.votes).length;
    expect(rows).toEqual([
      ...expected,
      ['Everyone invited', String(everyone), String(responded), String(everyone - responded), `${Math.floor((responded / everyone) * 100)}%`],
    ]);
    // Kept to its first 200 characters, and never markup.
    expect(rows.map((row) => row[0])).toContain(HOSTILE.slice(0, 200));
    // Text, and an attribute's quoted value: never an element.
    expect(page.body.replace(/"[^"]*"/g, '""')).not.toMatch(/<img\b/);
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain(`Invited people by specialty: ${expected.length} values`);
  });

  test('a column picked with the form: the fifty largest values, then the others in one row that adds up to the totals', async () => {
    const page = await owner.page(`${PAGE}?by=region`);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<option value="region" selected>/);
    const rows = rosterRows(page.body);
    const groups = expectedGroups('region', voted);
    expect(groups).toHaveLength(57);
    expect(rows).toHaveLength(52);
    expect(rows.slice(0, 50).map((row) => [row[0], Number(row[1]), Number(row[2])])).toEqual(
      groups.slice(0, 50).map(([value, invited, responded]) => [value === '' ? 'no value' : value, invited, responded]),
    );
    const rest = groups.slice(50);
    expect(rows[50].slice(0, 3)).toEqual(['7 other values', String(rest.reduce((n, g) => n + g[1], 0)), String(rest.reduce((n, g) => n + g[2], 0))]);
    expect(rows[51][0]).toBe('Everyone invited');
    expect(page.body).toContain('Invited people by region: the 50 largest of 57 values');

    const json = await owner.request(`/api/console/surveys/${SLUG}?by=region`);
    expect(json.status).toBe(200);
    expect(json.body.roster).toMatchObject({ columns: ['specialty', 'region'], column: 'region', unknownColumn: false, others: { values: 7 } });
    expect(json.body.roster.groups).toHaveLength(50);
  });

  test('a ballot from a personal link counts at once, in each of its roster groups', async () => {
    const index = PEOPLE.findIndex((person) => !person.votes && person.values.specialty === 'Pediatrics');
    const before = rosterRows((await owner.page(PAGE)).body).find((row) => row[0] === 'Pediatrics')!;
    expect((await vote(PEOPLE[index].secret, 500)).status).toBe(201);
    PEOPLE[index].votes = true;
    const after = rosterRows((await owner.page(PAGE)).body).find((row) => row[0] === 'Pediatrics')!;
    expect([Number(after[1]), Number(after[2]), Number(after[3])]).toEqual([Number(before[1]), Number(before[2]) + 1, Number(before[3]) - 1]);
  });

  test('a first ballot that arrives while the people are read again is counted in the people read, once', async () => {
    const index = PEOPLE.findIndex((person) => !person.votes && person.values.specialty === 'Cardiology');
    const person = PEOPLE[index];
    const group = async (value: string) =>
      (
        await server.api
          .db()
          .selectFrom('roster_groups')
          .select(['invited', 'responded'])
          .where('project_id', '=', SLUG)
          .where('value', '=', value)
          .orderBy('id')
          .execute()
      ).map((row) => [Number(row.invited), Number(row.responded)]);
    const before = [await group('Cardiology'), await group('')];
    // The reading the server makes when the file changes, held open in a transaction of the test's own.
    const survey = loadSurvey(SLUG, server.surveysDir);
    const text = readFileSync(path.join(server.surveysDir, SLUG, 'prepopulation.yaml'), 'utf8');
    const key = peopleKey({ signalsKeyFile: path.join(server.api.dataDir, 'signals.key') });
    const reading = await server.api.db().startTransaction().execute();
    await replacePeople(
      reading,
      survey.config.project_id,
      [Object.fromEntries(PEOPLE.map((one) => [one.secret, one.values]))],
      peopleSource(survey.config, peopleSourceDigest(survey.config, text), key, new Date()),
    );
    const ballot = vote(person.secret, 700);
    // On PostgreSQL the ballot's mark waits on the person's row, which the reading holds; on SQLite the whole ballot waits for the lock.
    if (server.api.dialect === 'postgres')
      await expect
        .poll(
          async () =>
            Number(
              (
                await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(
                  server.api.db(),
                )
              ).rows[0].n,
            ),
          FOLLOWED,
        )
        .toBeGreaterThan(0);
    await reading.commit().execute();
    expect((await ballot).status).toBe(201);
    person.votes = true;
    const marked = await server.api
      .db()
      .selectFrom('people')
      .select('responded')
      .where('project_id', '=', SLUG)
      .where('email_key', '=', person.values.email)
      .executeTakeFirstOrThrow();
    expect(Number(marked.responded)).toBe(1);
    expect([await group('Cardiology'), await group('')]).toEqual([
      [[before[0][0][0], before[0][0][1] + 1]],
      // The blank value of region (the people with none), and everyone's group: the person is in everyone's alone.
      before[1].map(([invited, responded]) => (invited === PEOPLE.length ? [invited, responded + 1] : [invited, responded])),
    ]);
  });

  test.each([
    ['a column the roster does not have', 'nope'],
    ['a personal column', 'email'],
    ['a NUL byte', '\u0000'],
    ['ten thousand characters', 'x'.repeat(10_000)],
    ['SQL', "specialty' OR '1'='1"],
    ['markup', '<script>alert(1)</script>'],
  ])('%s in ?by= is ignored with a note: the first column is shown, never an error', async (_, asked) => {
    const page = await owner.page(`${PAGE}?by=${encodeURIComponent(asked)}`);
    expect(page.status).toBe(200);
    expect(words(page.body)).toContain('The address names no roster column of this survey: the first column, specialty, is shown instead.');
    expect(page.body).toMatch(/<option value="specialty" selected>/);
    expect(rosterRows(page.body)[0][0]).toBe('Oncology');
    if (asked.length > 10) expect(page.body).not.toContain(asked);
    const json = await owner.request(`/api/console/surveys/${SLUG}?by=${encodeURIComponent(asked)}`);
    // The API refuses a control character in any query, as for every endpoint; the page above shows the first column.
    if (asked.includes('\u0000')) expect([json.status, json.body.error]).toEqual([400, 'bad_query']);
    else expect([json.status, json.body.roster]).toMatchObject([200, { column: 'specialty', unknownColumn: true }]);
  });

  test('an empty ?by= is the first column, with no note; an auditor sees the same table', async () => {
    const page = await auditor.page(`${PAGE}?by=`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('names no roster column');
    expect(rosterRows(page.body)).toEqual(rosterRows((await owner.page(PAGE)).body));
  });

  test('a survey whose roster has no column to count by (a name and a member number only) says so, and offers no form', async () => {
    const page = await owner.page('/console/members-choice/');
    expect(page.status).toBe(200);
    expect(words(page.body)).toContain('The roster has no column to count people by');
    expect(page.body).not.toContain('id="roster-column"');
    expect(rosterRows(page.body)).toEqual([]);
    const json = await owner.request('/api/console/surveys/members-choice?by=member-number');
    expect(json.body.roster).toEqual({ columns: [], unknownColumn: true, groups: [] });
  });
});

describe('signals, as counts of the latest look', () => {
  test('before any look the page says how to look', async () => {
    const page = await owner.page(PAGE);
    expect(words(page.body)).toContain(`No look for signals yet: npm run results -- signals ${SLUG} looks.`);
    expect(page.body).not.toContain('Signals are not shown here yet');
  });

  test('results signals records its look: when, by whom, its thresholds, and per kind the clusters and the ballots they name, which the page shows to every role', async () => {
    // Public ballots in a burst from one address: something for the detectors to find.
    for (let n = 0; n < 8; n++) expect((await server.api.post(demoBallot(900 + n))).status).toBe(201);
    const run = await results('signals', SLUG, '--by', 'Ana Ruiz', '--format', 'csv', '--window', '15');
    expect(run.code, run.stderr).toBe(0);
    const clusters = run.stdout
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => ({ kind: line.split(',')[0], ids: line.split(',').at(-1)!.split(' ') }));
    expect(clusters.length).toBeGreaterThan(0);

    const db = server.api.db();
    const runs = await db.selectFrom('signal_runs').selectAll().where('project_id', '=', SLUG).execute();
    expect(runs).toHaveLength(1);
    const stored = (
      await db
        .selectFrom('ballots')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('project_id', '=', SLUG)
        .executeTakeFirstOrThrow()
    ).n;
    expect(runs[0]).toMatchObject({
      actor: 'Ana Ruiz',
      via: 'command line',
      clusters: clusters.length,
      ballots_named: new Set(clusters.flatMap((c) => c.ids)).size,
    });
    expect(Number(runs[0].ballots_stored)).toBe(Number(stored));
    expect(JSON.parse(runs[0].thresholds)).toMatchObject({ window: 15, 'address-min': 5, 'bloc-lift': 10 });
    const kinds = await db.selectFrom('signal_run_kinds').selectAll().where('run_id', '=', runs[0].id).orderBy('position').execute();
    expect(kinds).toHaveLength(9);
    for (const kind of kinds) {
      const of = clusters.filter((c) => c.kind === kind.kind);
      expect([kind.kind, Number(kind.clusters), Number(kind.ballots_named)]).toEqual([kind.kind, of.length, new Set(of.flatMap((c) => c.ids)).size]);
    }

    const named = new Set(clusters.flatMap((c) => c.ids)).size;
    const sentence = `by Ana Ruiz: ${clusters.length} cluster${clusters.length === 1 ? '' : 's'} naming ${named} ballot${named === 1 ? '' : 's'}.`;
    for (const browser of [owner, auditor]) {
      const text = words((await browser.page(PAGE)).body);
      expect(text).toMatch(new RegExp(`Signals, as of \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC ${sentence.replace(/[.]/g, '\\.')}`));
      expect(text).toContain('No ballot has arrived since.');
      expect(text).toContain('--window 15');
      for (const kind of kinds.filter((k) => Number(k.clusters) > 0)) {
        const label = kind.kind.replaceAll('_', ' ');
        expect(text).toContain(`${label.charAt(0).toUpperCase()}${label.slice(1)} ${kind.clusters} ${kind.ballots_named}`);
      }
    }
  });

  test('the page counts the ballots that arrived since the look; the next look, without --by, is signed by the system user and shown instead', async () => {
    expect((await server.api.post(demoBallot(950))).status).toBe(201);
    expect((await server.api.post(demoBallot(951))).status).toBe(201);
    expect(words((await auditor.page(PAGE)).body)).toContain(`2 ballots have arrived since: npm run results -- signals ${SLUG} looks again.`);
    const again = await results('signals', SLUG, '--quiet');
    expect(again.code, again.stderr).toBe(0);
    const text = words((await owner.page(PAGE)).body);
    expect(text).toContain(`by ${userInfo().username}:`);
    expect(text).toContain('No ballot has arrived since.');
    expect(text).toContain('--window 10');
  });

  test('a look refused for its options records nothing', async () => {
    const before = await server.api.db().selectFrom('signal_runs').selectAll().execute();
    const refused = await results('signals', SLUG, '--window', 'soon');
    expect(refused.code).not.toBe(0);
    expect(await server.api.db().selectFrom('signal_runs').selectAll().execute()).toEqual(before);
  });
});
