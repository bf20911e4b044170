import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copySurveys, editSurvey } from '../../support/survey-fixture.ts';

/** Runs `astro build` on the surveys in `dir`, into a folder of its own that it removes. */
function buildWith(dir: string) {
  // Inside the project, so that the build's chunks resolve its packages.
  mkdirSync('node_modules/.cache', { recursive: true });
  const outDir = mkdtempSync(path.resolve('node_modules/.cache/build-errors-'));
  const build = spawnSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--outDir', outDir], {
    env: { ...process.env, SURVEYS_DIR: dir, ASTRO_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
  });
  rmSync(outDir, { recursive: true, force: true });
  return build;
}

/** Runs `npm run check:surveys` on the surveys in `dir`: its lines. */
function checkLines(dir: string): string[] {
  const check = spawnSync(process.execPath, ['bin/check-surveys.ts'], { env: { ...process.env, SURVEYS_DIR: dir }, encoding: 'utf8' });
  return check.stdout.trimEnd().split('\n');
}

describe('astro build', () => {
  it('fails on broken survey files, printing every problem as check:surveys does: file, line, column, key path, what was expected', () => {
    const dir = copySurveys();
    const file = editSurvey(dir, 'best-dentists-2024', ['layout', 1, 0, 'type'], 'nominations');
    const line =
      readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((text) => text.includes('type: nominations')) + 1;
    writeFileSync(
      path.join(dir, 'members-choice', 'survey.yaml'),
      `${readFileSync(path.join(dir, 'members-choice', 'survey.yaml'), 'utf8')}vote_requirment: 1\n`,
    );
    const build = buildWith(dir);
    const output = build.stdout + build.stderr;
    expect(build.status).not.toBe(0);
    expect(output).toContain(`${file}:${line}:13  layout[1][0].type  expected one of "nested", "text"`);
    const lines = checkLines(dir);
    expect(lines).toHaveLength(3);
    for (const shown of lines) expect(output).toContain(shown);
    expect(lines.at(-1)).toBe('2 problems in 2 of 4 surveys');
  });

  it('fails on a guessable personal secret, naming the rule and how to make one', () => {
    const dir = copySurveys();
    writeFileSync(path.join(dir, 'members-choice', 'prepopulation.yaml'), 'password1234:\n  member-name: A\n');
    const build = buildWith(dir);
    const output = build.stdout + build.stderr;
    expect(build.status).not.toBe(0);
    expect(output).toContain(
      `${path.join(dir, 'members-choice', 'prepopulation.yaml')}:1:1  pas…  a personal secret contains "password", which is tried first`,
    );
    expect(output).toContain("crypto.randomBytes(12).toString('base64url')");
    expect(output).not.toContain('password1234');
  });
});
