import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { siteSchemaLine, surveySchemaLine } from '../../../src/survey/config/editor-schemas.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** A scratch folder holding `surveys/`: a copy of the repository's surveys (or of `from`), or none when `from` is null. */
function scratch(from: string | null = path.join(ROOT, 'surveys')): string {
  const cwd = mkdtempSync(path.join(tmpdir(), 'peervote-new-survey-'));
  if (from) cpSync(from, path.join(cwd, 'surveys'), { recursive: true });
  return cwd;
}

/** Runs a bin/ script as a user would, from `cwd`, on `cwd/surveys` (or SURVEYS_DIR as given). */
function run(script: string, cwd: string, args: string[], surveysDir = 'surveys') {
  const done = spawnSync(process.execPath, [path.join(ROOT, 'bin', script), ...args], {
    cwd,
    env: { ...process.env, SURVEYS_DIR: surveysDir },
    encoding: 'utf8',
  });
  return { status: done.status, stdout: done.stdout, stderr: done.stderr };
}

const newSurvey = (cwd: string, ...args: string[]) => run('new-survey.ts', cwd, args);
const check = (cwd: string, ...args: string[]) => run('check-surveys.ts', cwd, args);

/** Every file and folder under `dir`, hidden ones too, with each file's text: what a refusal must leave as it was. */
function tree(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {};
  const entries = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  return Object.fromEntries(
    entries.map((name) => {
      const full = path.join(dir, name);
      const stat = lstatSync(full);
      return [name, stat.isDirectory() ? '(folder)' : stat.isSymbolicLink() ? `(link to ${readlinkSync(full)})` : readFileSync(full, 'utf8')];
    }),
  );
}

describe('npm run new-survey', () => {
  it('writes a commented survey, nominees and an invitation that pass the check as written, then says what next', () => {
    const cwd = scratch();
    const made = newSurvey(cwd, 'peer-vote-2027');
    expect(made.stderr).toBe('');
    expect(made.stdout).toBe(
      [
        'Wrote surveys/peer-vote-2027/: survey.yaml, nominees.csv, mail/invitation.md',
        '1 survey checked: no problems',
        'Next:',
        '  1. Edit surveys/peer-vote-2027/survey.yaml (title, fields, categories) and its nominee list',
        '  2. npm run check:surveys -- surveys/peer-vote-2027',
        '  3. npm start',
        '  4. Open http://127.0.0.1:4321/peer-vote-2027/',
        '',
      ].join('\n'),
    );
    expect(made.status).toBe(0);
    const text = readFileSync(path.join(cwd, 'surveys/peer-vote-2027/survey.yaml'), 'utf8');
    expect(text.split('\n')[0]).toBe(surveySchemaLine);
    expect(parse(text)).toMatchObject({ project_id: 'peer-vote-2027', survey_title: 'Peer Vote 2027', nominees: 'nominees.csv' });
    // The optional keys worth knowing are there, commented out.
    for (const key of ['expiration_date', 'verify', 'amend', 'receipt', 'sealed', 'prepopulation']) expect(text).toMatch(new RegExp(`^# +${key}: `, 'm'));
    expect(check(cwd)).toMatchObject({ status: 0, stdout: '5 surveys checked: no problems\n' });
  });

  it('takes a project_id and a title, quoted where YAML needs it', () => {
    const cwd = scratch();
    expect(newSurvey(cwd, 'dentists', '--project-id', 'dentists-2027', '--title', 'Best: "Dentists" #2027').status).toBe(0);
    const config = parse(readFileSync(path.join(cwd, 'surveys/dentists/survey.yaml'), 'utf8'));
    expect(config).toMatchObject({ project_id: 'dentists-2027', survey_title: 'Best: "Dentists" #2027' });
    expect(check(cwd, 'surveys/dentists').status).toBe(0);
  });

  it('starts a surveys folder that does not exist yet, with a site.yaml leading to the survey', () => {
    const cwd = scratch(null);
    const made = newSurvey(cwd, 'first-vote');
    expect(made.status).toBe(0);
    expect(made.stdout).toContain('Wrote surveys/site.yaml too, whose default survey is first-vote.');
    const site = readFileSync(path.join(cwd, 'surveys/site.yaml'), 'utf8');
    expect(site.split('\n')[0]).toBe(siteSchemaLine);
    expect(parse(site)).toEqual({ default_survey: 'first-vote' });
    expect(Object.keys(tree(path.join(cwd, 'surveys')))).toEqual([
      'first-vote',
      'first-vote/mail',
      'first-vote/mail/invitation.md',
      'first-vote/nominees.csv',
      'first-vote/survey.yaml',
      'site.yaml',
    ]);
    expect(check(cwd)).toMatchObject({ status: 0, stdout: '1 survey checked: no problems\n' });
  });

  it.each(['top-doctors-demo', 'members-choice', 'verified-vote', 'best-dentists-2024'])(
    '--from %s copies its settings, nominee list and mail templates, without its people, results or other files, and passes the check',
    (from) => {
      const cwd = scratch();
      const source = path.join(cwd, 'surveys', from);
      mkdirSync(path.join(source, 'results'));
      writeFileSync(path.join(source, 'results', 'ledger.jsonl'), '{}\n');
      writeFileSync(path.join(source, 'invitations.csv'), 'name,email,url\nAnn,ann@example.org,https://x/y\n');
      const made = newSurvey(cwd, 'the-copy', '--from', from);
      expect(made.stderr).toBe('');
      expect(made.status).toBe(0);
      const sourceConfig = parse(readFileSync(path.join(source, 'survey.yaml'), 'utf8'));
      const copied = tree(path.join(cwd, 'surveys/the-copy'));
      const mail = Object.keys(tree(path.join(source, 'mail'))).map((name) => `mail/${name}`);
      expect(Object.keys(copied).sort()).toEqual(['survey.yaml', sourceConfig.nominees, ...(mail.length ? ['mail', ...mail] : [])].sort());
      expect(copied[sourceConfig.nominees]).toBe(readFileSync(path.join(source, sourceConfig.nominees), 'utf8'));
      for (const name of mail) expect(copied[name]).toBe(readFileSync(path.join(source, name), 'utf8'));
      const text = copied['survey.yaml'];
      expect(text.split('\n')[0]).toBe(surveySchemaLine);
      const { prepopulation, project_id, ...rest } = parse(text);
      const { prepopulation: _, project_id: __, ...sourceRest } = sourceConfig;
      expect({ prepopulation, project_id }).toEqual({ prepopulation: undefined, project_id: 'the-copy' });
      expect(rest).toEqual(sourceRest);
      expect(check(cwd)).toMatchObject({ status: 0, stdout: '5 surveys checked: no problems\n' });
    },
  );

  it('--from a survey with its people in survey.yaml leaves them out, and takes the title given', () => {
    const cwd = scratch(path.join(ROOT, 'tests/api/fixtures/surveys'));
    const made = newSurvey(cwd, 'sink-2', '--from', 'kitchen-sink', '--title', 'Sink Two');
    expect(made.status).toBe(0);
    const text = readFileSync(path.join(cwd, 'surveys/sink-2/survey.yaml'), 'utf8');
    expect(parse(text)).toMatchObject({ project_id: 'sink-2', survey_title: 'Sink Two' });
    expect(parse(text).prepopulation).toBeUndefined();
    expect(text).not.toContain('Grace Hopper');
    expect(check(cwd, 'surveys/sink-2').status).toBe(0);
  });

  it('--from a survey without a title puts the title given after the project_id', () => {
    const cwd = scratch();
    const file = path.join(cwd, 'surveys/best-dentists-2024/survey.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^survey_title: .*\n/m, ''));
    expect(newSurvey(cwd, 'dentists-2027', '--from', 'best-dentists-2024', '--title', 'Best Dentists 2027').status).toBe(0);
    const text = readFileSync(path.join(cwd, 'surveys/dentists-2027/survey.yaml'), 'utf8');
    expect(text).toContain('\nproject_id: dentists-2027\nsurvey_title: Best Dentists 2027\nsurvey_subtitle: ');
    expect(check(cwd, 'surveys/dentists-2027').status).toBe(0);
  });

  describe('refuses in one line, writing nothing', () => {
    const cases: Array<[string, string[], string, (cwd: string) => void]> = [
      ['a slug that is taken', ['members-choice'], 'surveys/members-choice already exists: choose another slug, or edit that survey.', () => {}],
      [
        'a slug an address cannot carry',
        ['Peer_Vote'],
        '"Peer_Vote" cannot be a slug: use lowercase letters and digits, words joined by single hyphens, such as peer-vote-2027.',
        () => {},
      ],
      [
        'a slug with a doubled hyphen',
        ['peer--vote'],
        '"peer--vote" cannot be a slug: use lowercase letters and digits, words joined by single hyphens, such as peer-vote-2027.',
        () => {},
      ],
      ['the API’s address', ['api'], '"api" cannot be a slug: the site has an address /api of its own.', () => {}],
      ['the console’s address', ['console'], '"console" cannot be a slug: the site has an address /console of its own.', () => {}],
      [
        'the accessibility statement’s address',
        ['accessibility'],
        '"accessibility" cannot be a slug: the site has an address /accessibility of its own.',
        () => {},
      ],
      ['a top-level page of src/pages', ['404'], '"404" cannot be a slug: the site has an address /404 of its own.', () => {}],
      ['a folder of public/', ['media'], '"media" cannot be a slug: the site has an address /media of its own.', () => {}],
      [
        'a project_id another survey has',
        ['peer-vote', '--project-id', 'verified-vote-2027'],
        'project_id "verified-vote-2027" is already the project_id of survey "verified-vote": choose another with --project-id.',
        () => {},
      ],
      [
        'a slug that is another survey’s project_id, the new one’s by default',
        ['verified-vote-2027'],
        'project_id "verified-vote-2027" is already the project_id of survey "verified-vote": choose another with --project-id.',
        () => {},
      ],
      [
        'a survey to copy that does not exist',
        ['peer-vote', '--from', 'nowhere'],
        'There is no survey "nowhere" to copy; the surveys are best-dentists-2024, members-choice, top-doctors-demo, verified-vote.',
        () => {},
      ],
      [
        'a survey to copy that has problems of its own',
        ['peer-vote', '--from', 'best-dentists-2024'],
        'surveys/best-dentists-2024 has problems to fix before it is copied: npm run check:surveys -- surveys/best-dentists-2024',
        (cwd) => writeFileSync(path.join(cwd, 'surveys/best-dentists-2024/nominees.csv'), 'id,name\nn1,\n'),
      ],
    ];
    it.each(cases)('%s', (_, args, message, breakIt) => {
      const cwd = scratch();
      breakIt(cwd);
      const before = tree(path.join(cwd, 'surveys'));
      const made = newSurvey(cwd, ...args);
      expect(made).toEqual({ status: 1, stdout: '', stderr: `${message}\n` });
      expect(tree(path.join(cwd, 'surveys'))).toEqual(before);
    });

    it('a failure halfway: the files written beside the survey go, and no survey is half-made', () => {
      // A link to nowhere where the survey goes is no survey, but the folder cannot be moved onto it: the last step fails.
      const cwd = scratch();
      symlinkSync(path.join(cwd, 'nowhere'), path.join(cwd, 'surveys', 'peer-vote'));
      const before = tree(path.join(cwd, 'surveys'));
      const made = newSurvey(cwd, 'peer-vote');
      expect(made).toMatchObject({
        status: 1,
        stdout: '',
        stderr: expect.stringMatching(/^Cannot write surveys\/peer-vote \(ENOTDIR: .*\); nothing was written\.\n$/),
      });
      expect(tree(path.join(cwd, 'surveys'))).toEqual(before);
    });

    it('a surveys folder it cannot write', () => {
      // Root may write a read-only folder; a path through a file fails for everyone.
      const cwd = scratch(null);
      writeFileSync(path.join(cwd, 'a-file'), 'not a folder\n');
      const made = run('new-survey.ts', cwd, ['peer-vote'], 'a-file/surveys');
      expect(made).toEqual({
        status: 1,
        stdout: '',
        stderr: `Cannot write a-file/surveys/peer-vote (ENOTDIR: not a directory, mkdir '${path.join(cwd, 'a-file/surveys')}'); nothing was written.\n`,
      });
      expect(tree(cwd)).toEqual({ 'a-file': 'not a folder\n' });
    });
  });
});
