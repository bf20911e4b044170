import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleOperators, findOperator } from '../../../src/server/console/operators.ts';
import { findSurvey } from '../../../src/server/surveys.ts';
import { copySurveys } from '../../support/survey-fixture.ts';

// The server looks at its files at most once a second: the tests move the clock past that.
const later = () => vi.setSystemTime(Date.now() + 1500);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

const OWNER = 'operators:\n  - email: Ana@metrohealth.example\n    roles:\n      top-doctors-demo: owner\n';

describe('the console follows the operators file', () => {
  it('takes an operator added, lowered or removed at the next look, with no restart', () => {
    const dir = copySurveys();
    vi.stubEnv('SURVEYS_DIR', dir);
    writeFileSync(path.join(dir, 'operators.yaml'), OWNER);
    later();
    expect(findOperator('ana@METROHEALTH.example')?.roles).toEqual({ 'top-doctors-demo': 'owner' });

    writeFileSync(path.join(dir, 'operators.yaml'), OWNER.replace('owner', 'auditor'));
    later();
    expect(findOperator('ana@metrohealth.example')?.roles).toEqual({ 'top-doctors-demo': 'auditor' });

    writeFileSync(path.join(dir, 'operators.yaml'), 'operators: []\n');
    later();
    expect(findOperator('ana@metrohealth.example')).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shuts the console to everyone while the file is broken, and says why once', () => {
    const dir = copySurveys();
    vi.stubEnv('SURVEYS_DIR', dir);
    writeFileSync(path.join(dir, 'operators.yaml'), OWNER);
    later();
    expect(consoleOperators().usable).toBe(true);

    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    writeFileSync(path.join(dir, 'operators.yaml'), `${OWNER}      nowhere: owner\n`);
    later();
    const state = consoleOperators();
    expect(state.usable).toBe(false);
    expect(findOperator('ana@metrohealth.example')).toBeUndefined();
    later();
    consoleOperators();
    expect(log).toHaveBeenCalledTimes(1);
    expect(String(log.mock.calls[0][0])).toMatch(
      /^The console refuses every operator until .*operators\.yaml is mended: .*operators\.yaml:5:\d+ {2}operators\[0\]\.roles\.nowhere {2}names no survey/s,
    );

    writeFileSync(path.join(dir, 'operators.yaml'), OWNER);
    later();
    expect(findOperator('ana@metrohealth.example')).toBeDefined();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads PEERVOTE_PRIVATE_DIR/operators.yaml in place of the surveys folder's when it is there", () => {
    const dir = copySurveys();
    const outside = mkdtempSync(path.join(tmpdir(), 'peervote-private-'));
    vi.stubEnv('SURVEYS_DIR', dir);
    vi.stubEnv('PEERVOTE_PRIVATE_DIR', outside);
    writeFileSync(path.join(dir, 'operators.yaml'), OWNER);
    later();
    expect(findOperator('ana@metrohealth.example')).toBeDefined();
    writeFileSync(path.join(outside, 'operators.yaml'), 'operators:\n  - email: ben@metrohealth.example\n');
    later();
    expect(findOperator('ana@metrohealth.example')).toBeUndefined();
    expect(findOperator('ben@metrohealth.example')?.roles).toEqual({});
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('reads no survey again when only the operators file changes', () => {
    const dir = copySurveys();
    vi.stubEnv('SURVEYS_DIR', dir);
    later();
    const before = findSurvey('top-doctors-demo');
    writeFileSync(path.join(dir, 'operators.yaml'), OWNER);
    later();
    expect(findSurvey('top-doctors-demo')).toBe(before);
    rmSync(dir, { recursive: true, force: true });
  });
});
