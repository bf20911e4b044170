import { expect, test } from 'vitest';
import { answeringThread } from '../../../src/server/answering-thread.ts';

test('a keyed thread answers each question with its own answer, in whatever order they come back; once it has ended, it refuses', async () => {
  const thread = answeringThread<{ value: number; after: number }, number>(new URL('./fixtures/answer-later.worker.mjs', import.meta.url), 'The test thread', {
    keyed: true,
  });
  const finished: number[] = [];
  const asked = [
    { value: 1, after: 60 },
    { value: 2, after: 0 },
    { value: 3, after: 20 },
  ].map((question) => thread.ask(question).then((answer) => (finished.push(question.value), answer)));
  expect(await Promise.all(asked)).toEqual([2, 4, 6]);
  // The answers came back out of the order asked, and each still reached its own question.
  expect(finished).toEqual([2, 3, 1]);
  await thread.close();
  await expect(thread.ask({ value: 4, after: 0 })).rejects.toThrow('The test thread stopped with code 0.');
});
