import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// docs/accessibility-conformance.yaml, the OpenACR report (WCAG 2.2 edition), stays well-formed:
// every level A and AA criterion once, in its own chapter, with a level OpenACR knows and notes, and
// "supports" only where a person checked it.

/** WCAG 2.2's level A criteria, as OpenACR's WCAG 2.2 catalogue lists them (4.1.1 Parsing included, though removed). */
const LEVEL_A = [
  '1.1.1',
  '1.2.1',
  '1.2.2',
  '1.2.3',
  '1.3.1',
  '1.3.2',
  '1.3.3',
  '1.4.1',
  '1.4.2',
  '2.1.1',
  '2.1.2',
  '2.1.4',
  '2.2.1',
  '2.2.2',
  '2.3.1',
  '2.4.1',
  '2.4.2',
  '2.4.3',
  '2.4.4',
  '2.5.1',
  '2.5.2',
  '2.5.3',
  '2.5.4',
  '3.1.1',
  '3.2.1',
  '3.2.2',
  '3.2.6',
  '3.3.1',
  '3.3.2',
  '3.3.7',
  '4.1.1',
  '4.1.2',
];
/** WCAG 2.2's level AA criteria. */
const LEVEL_AA = [
  '1.2.4',
  '1.2.5',
  '1.3.4',
  '1.3.5',
  '1.4.3',
  '1.4.4',
  '1.4.5',
  '1.4.10',
  '1.4.11',
  '1.4.12',
  '1.4.13',
  '2.4.5',
  '2.4.6',
  '2.4.7',
  '2.4.11',
  '2.5.7',
  '2.5.8',
  '3.1.2',
  '3.2.3',
  '3.2.4',
  '3.3.3',
  '3.3.4',
  '3.3.8',
  '4.1.3',
];
/** Removed from WCAG 2.2 as obsolete: listed by the catalogue, and never applicable. */
const REMOVED = new Set(['4.1.1']);
/** OpenACR's adherence levels (its catalogue's terms). */
const LEVELS = new Set(['supports', 'partially-supports', 'does-not-support', 'not-applicable', 'not-evaluated']);
/** What a criterion's notes say when a person checked it: "supports" may rest on nothing less. */
const MANUAL_CHECK = /checked by a person:/i;

const CHAPTERS = { success_criteria_level_a: LEVEL_A, success_criteria_level_aa: LEVEL_AA } as const;

interface Criterion {
  num?: unknown;
  components?: Array<{ name?: unknown; adherence?: { level?: unknown; notes?: unknown } }>;
}

/** What is wrong with a parsed report, one sentence a problem; empty when nothing is. */
function reportProblems(report: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of ['title', 'report_date', 'catalog']) if (typeof report[key] !== 'string' || !report[key]) problems.push(`no ${key}`);
  if (typeof report.catalog === 'string' && !report.catalog.includes('wcag-2.2')) problems.push(`catalog ${report.catalog} is not a WCAG 2.2 edition`);
  if (typeof (report.product as { name?: unknown } | undefined)?.name !== 'string') problems.push('no product.name');
  const chapters = (report.chapters ?? {}) as Record<string, { criteria?: Criterion[] } | undefined>;
  const placed = new Map<string, string[]>();
  for (const [chapter, expected] of Object.entries(CHAPTERS)) {
    const criteria = chapters[chapter]?.criteria;
    if (!Array.isArray(criteria)) {
      problems.push(`chapter ${chapter} has no criteria`);
      continue;
    }
    for (const criterion of criteria) {
      const num = String(criterion.num);
      if (typeof criterion.num !== 'string') problems.push(`criterion ${num} in ${chapter}: num is not a string (quote it)`);
      placed.set(num, [...(placed.get(num) ?? []), chapter]);
      if (!expected.includes(num)) problems.push(`criterion ${num} does not belong in ${chapter}`);
      const web = criterion.components?.find((component) => component.name === 'web');
      const level = web?.adherence?.level;
      const notes = web?.adherence?.notes;
      if (typeof level !== 'string' || !LEVELS.has(level)) problems.push(`criterion ${num}: level ${String(level)} is none of ${[...LEVELS].join(', ')}`);
      if (typeof notes !== 'string' || notes.trim() === '') problems.push(`criterion ${num}: no notes`);
      else if (level === 'supports' && !MANUAL_CHECK.test(notes)) problems.push(`criterion ${num} supports, but its notes name no check by a person`);
      if (REMOVED.has(num) && level !== 'not-applicable') problems.push(`criterion ${num} was removed from WCAG 2.2: not-applicable`);
    }
  }
  for (const [chapter, expected] of Object.entries(CHAPTERS)) {
    for (const num of expected) {
      const where = placed.get(num) ?? [];
      if (!where.includes(chapter)) problems.push(`criterion ${num} is missing from ${chapter}`);
      if (where.length > 1) problems.push(`criterion ${num} is listed ${where.length} times`);
    }
  }
  return problems;
}

const text = readFileSync(new URL('../../../docs/accessibility-conformance.yaml', import.meta.url), 'utf8');
const read = () => parse(text) as Record<string, unknown> & { chapters: Record<string, { criteria: Criterion[] }> };
const criteriaOf = (report: ReturnType<typeof read>, chapter: keyof typeof CHAPTERS) => report.chapters[chapter].criteria;
const find = (report: ReturnType<typeof read>, num: string) =>
  [...criteriaOf(report, 'success_criteria_level_a'), ...criteriaOf(report, 'success_criteria_level_aa')].find((criterion) => criterion.num === num)!;

describe('the accessibility conformance report (docs/accessibility-conformance.yaml)', () => {
  it('lists every WCAG 2.2 level A and AA criterion once, with a valid level, notes, and no "supports" without a check by a person', () => {
    expect(reportProblems(read())).toEqual([]);
    expect(LEVEL_A.length + LEVEL_AA.length).toBe(56);
  });

  it('finds a criterion missing, listed twice or in the wrong chapter', () => {
    const missing = read();
    missing.chapters.success_criteria_level_aa.criteria = criteriaOf(missing, 'success_criteria_level_aa').filter((criterion) => criterion.num !== '2.5.8');
    expect(reportProblems(missing)).toEqual(['criterion 2.5.8 is missing from success_criteria_level_aa']);

    const twice = read();
    criteriaOf(twice, 'success_criteria_level_a').push(structuredClone(find(twice, '1.1.1')));
    expect(reportProblems(twice)).toEqual(['criterion 1.1.1 is listed 2 times']);

    const moved = read();
    const contrast = criteriaOf(moved, 'success_criteria_level_aa').find((criterion) => criterion.num === '1.4.3')!;
    moved.chapters.success_criteria_level_aa.criteria = criteriaOf(moved, 'success_criteria_level_aa').filter((criterion) => criterion !== contrast);
    criteriaOf(moved, 'success_criteria_level_a').push(contrast);
    expect(reportProblems(moved)).toEqual([
      'criterion 1.4.3 does not belong in success_criteria_level_a',
      'criterion 1.4.3 is missing from success_criteria_level_aa',
    ]);
  });

  it('finds an unknown level, missing notes and an unquoted number', () => {
    const report = read();
    find(report, '2.4.2').components![0].adherence!.level = 'mostly';
    find(report, '2.4.4').components![0].adherence!.notes = '';
    find(report, '3.1.1').num = 3.1;
    expect(reportProblems(report)).toEqual(
      expect.arrayContaining([
        'criterion 2.4.2: level mostly is none of supports, partially-supports, does-not-support, not-applicable, not-evaluated',
        'criterion 2.4.4: no notes',
        'criterion 3.1 in success_criteria_level_a: num is not a string (quote it)',
      ]),
    );
  });

  it('refuses "supports" that rests on automated checks alone, and accepts it once a person’s check is named', () => {
    const report = read();
    const adherence = find(report, '2.4.1').components![0].adherence!;
    adherence.level = 'supports';
    adherence.notes = 'Automated: axe-core finds no violation of bypass.';
    expect(reportProblems(report)).toEqual(['criterion 2.4.1 supports, but its notes name no check by a person']);
    adherence.notes = 'Checked by a person: the skip link, by keyboard in Firefox and Chrome, on every voter page.';
    expect(reportProblems(report)).toEqual([]);
  });

  it('keeps 4.1.1 Parsing, removed from WCAG 2.2, not applicable', () => {
    const report = read();
    find(report, '4.1.1').components![0].adherence!.level = 'not-evaluated';
    expect(reportProblems(report)).toEqual(['criterion 4.1.1 was removed from WCAG 2.2: not-applicable']);
  });
});
