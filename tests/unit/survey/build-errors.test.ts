import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

describe('astro build', () => {
  it('fails on a broken survey file, naming the file, the key path and what was expected', () => {
    const dir = copySurveys();
    const file = editSurvey(dir, 'best-dentists-2024', ['layout', 1, 0, 'type'], 'nominations');
    const build = buildWith(dir);
    const output = build.stdout + build.stderr;
    expect(build.status).not.toBe(0);
    expect(output).toContain(file);
    expect(output).toMatch(/layout\[1\]\[0\]\.type: expected one of "nested", "text"/);
  });

  it('fails on a guessable personal secret, naming the rule and how to make one', () => {
    const dir = copySurveys();
    writeFileSync(path.join(dir, 'members-choice', 'prepopulation.yaml'), 'password1234:\n  member-name: A\n');
    const build = buildWith(dir);
    const output = build.stdout + build.stderr;
    expect(build.status).not.toBe(0);
    expect(output).toContain(path.join(dir, 'members-choice', 'prepopulation.yaml'));
    expect(output).toContain('pas…: a personal secret contains "password", which is tried first');
    expect(output).toContain("crypto.randomBytes(12).toString('base64url')");
    expect(output).not.toContain('password1234');
  });
});
