import { describe, expect, test } from 'vitest';
import { groupId, queueOrder } from '../../../src/results/writeins/writeins-queue.ts';
import { nameKey } from '../../../src/survey/nominees/name-key.ts';

// The write-ins queue's pure rules: the groups waiting first, in the order given; and a group's
// id, one for every spelling that folds the same, another for another sub-category.

describe('queueOrder', () => {
  test('puts the groups waiting for a decision first, each part in the order given', () => {
    const groups = [
      { name: 'a', count: 9, decision: { action: 'merge' } },
      { name: 'b', count: 7 },
      { name: 'c', count: 5, decision: { action: 'reject' } },
      { name: 'd', count: 3 },
      { name: 'e', count: 1 },
    ];
    expect(queueOrder(groups).map((group) => group.name)).toEqual(['b', 'd', 'e', 'a', 'c']);
    expect(groups.map((group) => group.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(queueOrder([])).toEqual([]);
  });
});

describe('groupId', () => {
  const id = (name: string, subcategory = 'Neurosurgery') => groupId({ group: 'Surgery', subcategory, nameKey: nameKey(name) });

  test.each([
    ['Dr. Hannah Weiss', 'hannah  weiss'],
    ['Dr. Hannah Weiss', 'HANNAH WEISS, MD'],
    ['Hannah Weiß', 'Hannah Weiß'],
    ['José Álvarez-Ruiz', 'jose alvarez ruiz'],
  ])('“%s” and “%s” are one group', (a, b) => {
    expect(id(a)).toBe(id(b));
    expect(id(a)).toMatch(/^[0-9a-f]{16}$/);
  });

  test('another name, or the same name in another sub-category, is another group', () => {
    expect(id('Hannah Weiss')).not.toBe(id('Hanna Weiss'));
    expect(id('Hannah Weiss')).not.toBe(id('Hannah Weiss', 'Cardiology'));
  });
});
