import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllSurveys, loadPrepopulation, loadSite, loadSurvey } from '../../../src/survey/config/loader.ts';
import { ConfigError } from '../../../src/survey/errors.ts';
import { copySurveys, editSurvey } from '../../support/survey-fixture.ts';

describe('the sample surveys', () => {
  it('all load, with defaults applied', () => {
    const surveys = loadAllSurveys();
    expect(surveys.map((s) => s.slug)).toEqual(['best-dentists-2024', 'members-choice', 'top-doctors-demo', 'verified-vote']);
    const demo = surveys.find((s) => s.slug === 'top-doctors-demo')!.config;
    expect(demo).toMatchObject({ vote_requirement: 1, votes_per_category: 3, write_in_limit: 10, project_type: 'form' });
    expect(demo.faces.find((tile) => tile.title === 'Orthopedic Surgery')).toEqual({ title: 'Orthopedic Surgery', taken: true });
    expect(demo.faces[0]).toEqual({ title: 'Cardiology' });
    expect(demo).toMatchObject({ verify: 'none', amend: 'never' });
    expect(surveys.find((s) => s.slug === 'verified-vote')!.config).toMatchObject({ verify: 'email', amend: 'until_close' });
  });

  it('keeps prepopulation in its own file, read only on request', () => {
    const demo = loadSurvey('top-doctors-demo');
    expect(demo.config.prepopulation).toBe('prepopulation.yaml');
    expect(Object.keys(loadPrepopulation(demo))).toHaveLength(2);
  });

  it('names the default survey in the site settings', () => {
    expect(loadSite().default_survey).toBe('top-doctors-demo');
  });
});

// Each case breaks one key of the demo survey the way an author might, and names the
// key path and the words the error must carry.
const mistakes: Array<{ name: string; key: Array<string | number>; value: unknown; path: string; says: string }> = [
  { name: 'an unknown field type', key: ['layout', 2, 0, 'type'], value: 'phone', path: 'layout[2][0].type', says: 'expected one of' },
  { name: 'a misspelt key', key: ['vote_requirment'], value: 2, path: 'vote_requirment', says: 'not a known key' },
  {
    name: 'text where a number belongs',
    key: ['votes_per_category'],
    value: 'three',
    path: 'votes_per_category',
    says: 'expected a whole number, got "three"',
  },
  { name: 'too many votes per category', key: ['votes_per_category'], value: 6, path: 'votes_per_category', says: '6' },
  {
    name: 'a negative write-in limit, in our words for a whole number',
    key: ['write_in_limit'],
    value: -1,
    path: 'write_in_limit',
    says: 'expected a whole number greater than or equal to 0 but received `-1`',
  },
  { name: 'a missing project id', key: ['project_id'], value: undefined, path: 'project_id', says: 'is required' },
  { name: 'a select without options', key: ['layout', 1, 0, 'options'], value: undefined, path: 'layout[1][0]', says: 'needs `options`' },
  { name: 'a nested field without subfields', key: ['layout', 0, 0, 'fields'], value: undefined, path: 'layout[0][0]', says: 'needs `fields`' },
  { name: 'an impossible date', key: ['expiration_date'], value: 'next spring', path: 'expiration_date', says: 'expected a date' },
  { name: 'a rule that is not text', key: ['rules', 1], value: { text: 'x' }, path: 'rules[1]', says: 'expected a text' },
  {
    name: 'an ad for no category',
    key: ['categories', 'ADS', 'Dentistry'],
    value: ['/media/x.svg'],
    path: 'categories.ADS.Dentistry',
    says: 'names no category',
  },
  { name: 'a duplicate field name', key: ['layout', 3, 0, 'name'], value: 'email', path: 'layout[3][0].name', says: 'already the name of layout[2][0]' },
  { name: 'a Universal Analytics id', key: ['analytics_id'], value: 'UA-1234-1', path: 'analytics_id', says: 'Google Analytics 4 measurement id' },
  { name: 'a pixel id with script in it', key: ['facebook_pixel'], value: "1');alert(1", path: 'facebook_pixel', says: 'digits only' },
  { name: 'a LinkedIn partner id that is a URL', key: ['linkedin_insights'], value: 'https://linkedin.com', path: 'linkedin_insights', says: 'partner id' },
  { name: 'a bad field name', key: ['layout', 2, 1, 'name'], value: 'phone number', path: 'layout[2][1].name', says: 'letters, digits, dashes' },
];

describe('a broken survey file', () => {
  it.each(mistakes)('reports $name with the file and key path', ({ key, value, path: keyPath, says }) => {
    const dir = copySurveys();
    const file = editSurvey(dir, 'top-doctors-demo', key, value);
    let error: unknown;
    try {
      loadSurvey('top-doctors-demo', dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const { message, problems } = error as ConfigError;
    expect(message).toContain(file);
    expect(problems).toContainEqual(expect.objectContaining({ path: keyPath, message: expect.stringContaining(says) }));
  });

  it('reports invalid YAML with its line', () => {
    const dir = copySurveys();
    writeFileSync(path.join(dir, 'top-doctors-demo', 'survey.yaml'), 'project_id: x\nrules: [unclosed\n');
    expect(() => loadSurvey('top-doctors-demo', dir)).toThrow(
      /survey\.yaml:3:1 {2}\(syntax\) {2}is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a \]$/,
    );
  });

  it('reports two surveys sharing a project id', () => {
    const dir = copySurveys();
    editSurvey(dir, 'members-choice', ['project_id'], 'top-doctors-demo');
    expect(() => loadAllSurveys(dir)).toThrow(
      `${path.join(dir, 'top-doctors-demo', 'survey.yaml')}:3:13  project_id  "top-doctors-demo" is already the project_id of survey "members-choice"`,
    );
  });

  it('refuses a guessable personal secret, naming the rule and how to make one, but never the whole secret', () => {
    const dir = copySurveys();
    writeFileSync(path.join(dir, 'members-choice', 'prepopulation.yaml'), '"123456789012":\n  member-name: A\nshort-9:\n  member-name: B\n');
    const load = () => loadPrepopulation(loadSurvey('members-choice', dir));
    expect(load).toThrow(
      /prepopulation\.yaml:1:1 {2}123… {2}a personal secret is a run of consecutive characters; use 12 or more random characters, e\.g\. from: node -e/,
    );
    expect(load).toThrow(/prepopulation\.yaml:3:1 {2}sho… {2}a personal secret is shorter than 12 characters/);
    expect(load).not.toThrow(/123456789012|short-9/);
  });

  it('reports a prepopulated value for a field the layout lacks', () => {
    const dir = copySurveys();
    writeFileSync(path.join(dir, 'members-choice', 'prepopulation.yaml'), 'abc123:\n  shoe-size: "44"\n');
    const load = () => loadPrepopulation(loadSurvey('members-choice', dir));
    expect(load).toThrow(/prepopulation\.yaml:2:3 {2}abc…\.shoe-size {2}names no field of the layout/);
    expect(load).not.toThrow(/abc123/);
  });

  it('reports a default survey that does not exist', () => {
    const dir = copySurveys();
    writeFileSync(path.join(dir, 'site.yaml'), 'default_survey: nowhere\n');
    expect(() => loadSite(dir)).toThrow(/site\.yaml:1:17 {2}default_survey {2}names no survey folder/);
  });
});

describe('a YAML file with a repeated key', () => {
  it('stops with the line of the repetition, and a map of 20,000 people reads in seconds, not the minutes of comparing every key with every other', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { loadPrepopulation, loadSurvey } = await import('../../../src/survey/config/loader.ts');
    const dir = mkdtempSync(path.join(tmpdir(), 'peervote-yaml-'));
    mkdirSync(path.join(dir, 'demo'));
    writeFileSync(path.join(dir, 'demo', 'survey.yaml'), readFileSync('surveys/top-doctors-demo/survey.yaml', 'utf8'));
    writeFileSync(path.join(dir, 'demo', 'nominees.csv'), readFileSync('surveys/top-doctors-demo/nominees.csv', 'utf8'));
    const { randomBytes } = await import('node:crypto');
    const secrets = Array.from({ length: 20_000 }, () => randomBytes(12).toString('base64url'));
    const people = secrets.map((secret, n) => `${secret}:\n  email: p${n}@example.org\n`).join('');
    writeFileSync(path.join(dir, 'demo', 'prepopulation.yaml'), people);
    const started = performance.now();
    expect(Object.keys(loadPrepopulation(loadSurvey('demo', dir)))).toHaveLength(20_000);
    expect(performance.now() - started).toBeLessThan(60_000);
    writeFileSync(path.join(dir, 'demo', 'prepopulation.yaml'), `${people}${secrets[1]}:\n  email: again@example.org\n`);
    const again = () => loadPrepopulation(loadSurvey('demo', dir));
    const shown = `${secrets[1].slice(0, 3)}…`;
    expect(again).toThrow(`prepopulation.yaml:40001:1  ${shown}  is not valid YAML: Map keys must be unique ("${shown}" is repeated)`);
    expect(again).not.toThrow(secrets[1]);
  }, 180_000);
});

describe('the quick check of a prepopulation file of the usual shape', () => {
  it('says yes exactly where the struct does', async () => {
    const { is } = await import('superstruct');
    const { Prepopulation } = await import('../../../src/survey/config/config.struct.ts');
    const { isPlainPersonMap } = await import('../../../src/survey/config/loader.ts');
    const SECRETS = ['k7Qm2RzX4pWv', '', ' ', '-x', '__proto__x'];
    const NAMES = ['name-first', 'email', 'a_b', 'A1', '1st', 'has space', '', '-x', 'é'];
    let yes = 0;
    for (const secret of SECRETS)
      for (const name of NAMES) {
        const map = { [secret]: { [name]: 'Ann' }, Zp4Wq8Kd2Lx6: { email: 'a@example.org' } };
        expect(isPlainPersonMap(map), `${JSON.stringify(secret)} → ${JSON.stringify(name)}`).toBe(is(map, Prepopulation));
        if (isPlainPersonMap(map)) yes++;
      }
    // Both answers occur, so the comparison says something.
    expect(yes).toBeGreaterThan(0);
    expect(yes).toBeLessThan(SECRETS.length * NAMES.length);
  });
});
