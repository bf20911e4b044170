import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CHECK = path.join(ROOT, 'bin/check-surveys.ts');
/** A surveys folder of its own: each survey broken in one way (its first line says how), but `fine`. */
const BROKEN = path.join(ROOT, 'tests/unit/fixtures/broken-surveys');

/** Runs `npm run check:surveys` as a user would, from `cwd`, on the surveys folder there. */
function check(cwd: string, args: string[] = []) {
  const { SURVEYS_DIR: _, ...env } = process.env;
  const run = spawnSync(process.execPath, [CHECK, ...args], { cwd, env, encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trimEnd().split('\n'), stderr: run.stderr, output: run.stdout + run.stderr };
}

describe('npm run check:surveys', () => {
  it('prints every problem of every survey in one run, each at its file, line and column, and exits 1', () => {
    const { status, lines } = check(BROKEN);
    expect(lines).toEqual([
      'surveys/bad-date/survey.yaml:3:18  expiration_date  expected a date such as 2030-12-31 or 2030-12-31T23:59:59Z, got "end of March"',
      'surveys/bad-files/nominees.csv:3:1  id  "n1" is already the id of the nominee on line 2; ids must be unique',
      'surveys/bad-files/nominees.csv:4:4  name  is required (expected a text)',
      `surveys/bad-files/prepopulation.yaml:1:1  pas…  a personal secret contains "password", which is tried first; use 12 or more random characters, e.g. from: node -e "console.log(crypto.randomBytes(12).toString('base64url'))"`,
      'surveys/bad-files/prepopulation.yaml:6:3  Zp4….shoe-size  names no field of the layout, roster key (email, name, nominee_id) or roster_columns entry',
      "surveys/bad-files/mail/invitation.md:4:1  body  an invitation must carry {{url}}, the person's link",
      'surveys/bad-files/mail/invitation.md:4:27  body  uses the unknown placeholder {{link}}; the placeholders are {{name}}, {{url}}, {{survey_title}}, {{closes}}, {{receipt}}, {{unsubscribe_url}}',
      'surveys/inline-people/survey.yaml:13:12  prepopulation.Qm7….phone  expected a text or a list of texts',
      'surveys/missing-nominees/nominees.csv:1:1  (file)  does not exist; check the `nominees` key of survey.yaml',
      'surveys/same-id/survey.yaml:2:13  project_id  "fine" is already the project_id of survey "fine"',
      'surveys/unknown-key/survey.yaml:3:1  vote_requirment  is not a known key: check its spelling, or remove it',
      'surveys/unknown-key/survey.yaml:7:7  layout[0][0].name  is required (expected a text)',
      'surveys/wrong-type/survey.yaml:3:21  votes_per_category  expected a whole number, got "three"',
      'surveys/wrong-type/survey.yaml:8:13  layout[0][0].type  expected one of "nested", "text", "select", "email", "nomination", "faces", "asktheexpert", "html", "slider", "textarea", "radio", "fancy-radio", "checkbox", "file", got "txt"',
      'surveys/yaml-syntax/survey.yaml:4:1  (syntax)  is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
      'surveys/yaml-syntax/survey.yaml:10:17  (syntax)  is not valid YAML: Nested mappings are not allowed in compact mappings',
      '16 problems in 8 of 9 surveys',
    ]);
    expect(status).toBe(1);
  });

  it('never prints a personal secret whole, nor a prepopulated person’s values', () => {
    const { output } = check(BROKEN);
    expect(output).toContain('pas…');
    const secretsAndValues = ['password1234', 'Zp4Wq8Kd2Lx6', 'Qm7kX2pLw9Rz', 'pat@example.org', 'Pat Example', 'Sam Example', '5551234567'];
    for (const shown of secretsAndValues) expect(output).not.toContain(shown);
  });

  it('passes the repository’s surveys, exit 0', () => {
    const { status, lines } = check(ROOT);
    expect(lines).toEqual([expect.stringMatching(/^\d+ surveys checked: no problems$/)]);
    expect(status).toBe(0);
  });

  it('checks the surveys named, by folder or slug, and their project_id against every survey of the folder', () => {
    expect(check(BROKEN, ['surveys/fine/', 'bad-date'])).toMatchObject({
      status: 1,
      lines: [
        'surveys/bad-date/survey.yaml:3:18  expiration_date  expected a date such as 2030-12-31 or 2030-12-31T23:59:59Z, got "end of March"',
        'surveys/fine/survey.yaml:2:13  project_id  "fine" is also the project_id of survey "same-id"',
        '2 problems in 2 of 2 surveys',
      ],
    });
    expect(check(BROKEN, ['surveys/fine', 'same-id']).lines).toEqual([
      'surveys/same-id/survey.yaml:2:13  project_id  "fine" is already the project_id of survey "fine"',
      '1 problem in 1 of 2 surveys',
    ]);
  });

  it('refuses an argument that names no survey folder, in one line, exit 2', () => {
    const run = check(BROKEN, ['surveys/nowhere']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('"surveys/nowhere" is not a survey folder in surveys: name one as surveys/<slug> or <slug>.\n');
  });
});
