import { afterEach, expect, test, vi } from 'vitest';

const survey = {
  slug: 'unit',
  project_id: 'unit',
  project_type: 'form',
  layout: [[{ name: 'nomination', type: 'nomination' }]],
  categories: { Medicine: ['Cardiology'] },
  votes_per_category: 1,
  vote_requirement: 1,
  write_in_limit: 2,
  faces: [],
  asktheexpert: [],
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

test('the checks have their survey as the store loads, read from the data the page carries', async () => {
  const root = { dataset: { survey: JSON.stringify(survey) } };
  vi.stubGlobal('document', { getElementById: (id: string) => (id === 'survey-root' ? root : null) });
  vi.resetModules();
  const { $ballotSurvey } = await import('../../../src/ballot/validation.ts');
  expect($ballotSurvey.get()).toEqual(survey);
});

test('a page without a survey leaves the checks without one', async () => {
  vi.stubGlobal('document', { getElementById: () => null });
  vi.resetModules();
  const { $ballotSurvey } = await import('../../../src/ballot/validation.ts');
  expect($ballotSurvey.get()).toBeUndefined();
});

test('the empty search result reaches the write-ins island through its store', async () => {
  const { $writeInFocus, askWriteInFocus } = await import('../../../src/ballot/writeins/writeins.ts');
  const focus = vi.fn();
  const stop = $writeInFocus.listen(focus);
  askWriteInFocus();
  askWriteInFocus();
  stop();
  expect(focus).toHaveBeenCalledTimes(2);
});
