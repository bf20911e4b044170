import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { loadAllSurveys, loadPrepopulation } from '../../src/survey/config/loader.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('the build output holds no secret and no prepopulated value', () => {
  const surveys = loadAllSurveys();
  const needles = surveys.flatMap((survey) =>
    Object.entries(loadPrepopulation(survey)).flatMap(([secret, values]) => [secret, ...Object.values(values).flat()]),
  );
  // Values such as "MD" also occur as options of the layout; they are not personal.
  const personal = needles.filter((value) => value.length > 3);
  expect(personal.length).toBeGreaterThan(10);
  const files = filesUnder('dist');
  expect(files.some((file) => file.endsWith('.js'))).toBe(true);
  const leaks = files.flatMap((file) => {
    const text = readFileSync(file, 'latin1');
    return personal.filter((value) => text.includes(value)).map((value) => `${file}: ${value}`);
  });
  expect(leaks).toEqual([]);
});
