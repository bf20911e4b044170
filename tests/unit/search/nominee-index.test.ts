import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllSurveys, loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { nomineeIndex } from '../../../src/server/search/nominees.ts';
import { ConfigError } from '../../../src/survey/errors.ts';

/** A copy of the sample surveys that a test may break. */
function copySurveys(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'peervote-nominees-'));
  cpSync(path.resolve('surveys'), dir, { recursive: true });
  return dir;
}

describe('the sample surveys', () => {
  it.each([
    ['top-doctors-demo', 3000],
    ['best-dentists-2024', 60],
    ['members-choice', 40],
  ])('%s ships a valid list of %i nominees', (slug, count) => {
    expect(loadNominees(loadSurvey(slug))).toHaveLength(count);
  });

  it('the demo list has the names search must cope with', () => {
    const names = loadNominees(loadSurvey('top-doctors-demo')).map((n) => n.name);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range spells "any non-ASCII character".
    expect(names.filter((n) => /[^\x00-\x7f]/.test(n)).length).toBeGreaterThan(300);
    expect(names.filter((n) => /\S-\S/.test(n)).length).toBeGreaterThan(100);
    expect(names.filter((n) => n.includes("'")).length).toBeGreaterThan(50);
    const surnames = new Map<string, number>();
    for (const name of names) surnames.set(name.split(' ').at(-1)!, (surnames.get(name.split(' ').at(-1)!) ?? 0) + 1);
    expect(Math.max(...surnames.values())).toBeGreaterThan(40);
    expect(names.filter((n) => n === 'Maria Garcia').length).toBeGreaterThanOrEqual(2);
  });
});

describe('nomineeIndex', () => {
  const demo = loadAllSurveys().find((s) => s.slug === 'top-doctors-demo')!;

  it('tells the ballot endpoint which ids belong to the survey', () => {
    const index = nomineeIndex(demo);
    expect(index.size).toBe(3000);
    expect(index.has('tdd-0001')).toBe(true);
    expect(index.get('tdd-0001')).toMatchObject({ name: 'José Álvarez-Ruiz' });
    expect(index.has('tdd-9999')).toBe(false);
    expect(index.has('mc-01')).toBe(false);
    expect(index.get('')).toBeUndefined();
  });

  it('is read once per survey and cached', () => {
    expect(nomineeIndex(demo)).toBe(nomineeIndex(loadSurvey('top-doctors-demo')));
    expect(nomineeIndex(demo).engine()).toBe(nomineeIndex(demo).engine());
  });

  it('fails with file, line and column on a bad row', () => {
    const dir = copySurveys();
    const file = path.join(dir, 'members-choice', 'nominees.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"id":"mc-99","name":""}\n`);
    expect(() => nomineeIndex(loadSurvey('members-choice', dir))).toThrow(`${file}:41:15  name  is empty: every nominee needs a name`);
  });
});

describe('survey.yaml', () => {
  function problemsOf(edit: (text: string) => string, slug = 'best-dentists-2024'): string {
    const dir = copySurveys();
    const file = path.join(dir, slug, 'survey.yaml');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    try {
      loadSurvey(slug, dir);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    return '';
  }

  it('requires a nominee list where the layout has a nomination field', () => {
    expect(problemsOf((text) => text.replace(/^nominees: .*$/m, ''))).toMatch(/survey\.yaml:3:1 {2}nominees {2}is required by the nomination field/);
  });

  it('takes only a CSV or JSON Lines file name', () => {
    expect(problemsOf((text) => text.replace(/^nominees: .*$/m, 'nominees: ../secrets.txt'))).toContain('expected the name of a .csv or .jsonl file');
  });

  it('refuses a bracket in a group or sub-category name, which the slots’ form-data names could not carry', () => {
    expect(problemsOf((text) => text.replace('    - Orthodontics', '    - Orthodontics [kids]'))).toContain(
      'a group or sub-category name cannot hold "[" or "]" (the ballot\'s form-data names are built with them), got "Orthodontics [kids]"',
    );
    expect(problemsOf((text) => text.replace('  Dentistry:', '  Dentistry]:'))).toContain('got "Dentistry]"');
    expect(problemsOf((text) => text.replace('    - Orthodontics', '    - Orthodontics (kids)'))).toBe('');
  });

  it('wants the three Algolia keys together', () => {
    let line = 0;
    const problems = problemsOf((text) => {
      line = text.split('\n').length;
      return `${text}algolia_index: dentists\n`;
    });
    // The key added as the file's last line, its value at column 16.
    expect(problems).toContain(`survey.yaml:${line}:16  algolia_index  algolia_app_id, algolia_api_key (search-only) and algolia_index go together`);
  });
});
