import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readOperators } from '../../src/survey/operators/operators-file.ts';
import { listSurveySlugs } from '../../src/survey/config/loader.ts';

// The operators file is the survey API's alone: the global setup has built the site with the
// repository's surveys/operators.yaml in place, and nothing of it may reach what a CDN serves.

const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'dist/client');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the built site and the operators file', () => {
  test('holds no operator address or name', () => {
    const operators = readOperators(path.join(ROOT, 'surveys/operators.yaml'), listSurveySlugs(path.join(ROOT, 'surveys')));
    const needles = operators.flatMap((operator) => [operator.email, operator.key, operator.name]);
    expect(needles.length).toBeGreaterThanOrEqual(3);
    const files = filesUnder(CLIENT);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    const leaks = files.flatMap((file) => {
      const text = readFileSync(file, 'latin1');
      return needles.filter((needle) => text.includes(needle)).map((needle) => `${path.relative(CLIENT, file)}: ${needle}`);
    });
    expect(leaks).toEqual([]);
  });

  test('makes no survey of it: no page, no rule, no copy of the file', () => {
    expect(existsSync(path.join(CLIENT, 'operators'))).toBe(false);
    expect(filesUnder(CLIENT).filter((file) => path.basename(file).startsWith('operators'))).toEqual([]);
    expect(readFileSync(path.join(CLIENT, '_redirects'), 'utf8')).not.toContain('operators');
  });
});
