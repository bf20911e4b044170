import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $suggestions,
  closeSuggestions,
  configureSearch,
  hideSuggestions,
  moveActive,
  prepareSearch,
  typeQuery,
  uniqueExactHit,
} from '../../../src/search/suggestions.ts';
import type { NomineeSearchClient, SearchRequest } from '../../../src/search/search-client.ts';
import type { NomineeHit, NomineeResults } from '../../../src/survey/nominees/nominee-search.ts';

/** A search client the test controls, after InstantSearch's own tests/mocks/createSearchClient.ts. */
function fakeClient() {
  const calls: SearchRequest[][] = [];
  const pending: Array<(results: NomineeResults) => void> = [];
  const failures: Array<(error: Error) => void> = [];
  const client: NomineeSearchClient = {
    search: (requests) => {
      calls.push(requests);
      return new Promise((resolve, reject) => {
        pending.push(resolve);
        failures.push(reject);
      });
    },
  };
  const fail = (index: number) => failures[index](new Error('nominee search answered 503'));
  const answer = (index: number, names: string[]) =>
    pending[index]({
      results: [
        {
          hits: names.map((name, i): NomineeHit => ({ objectID: `n${i}`, id: `n${i}`, name })),
          nbHits: names.length,
          page: 0,
          nbPages: 1,
          hitsPerPage: 12,
          query: '',
          params: '',
          processingTimeMS: 1,
          exhaustiveNbHits: true,
        },
      ],
    });
  return { client, calls, answer, fail };
}

const SLOT = 'nominations[Surgery][Neurosurgery][1]';
const SUBCATEGORY = 'Neurosurgery';

describe('the suggestions store', () => {
  let fake: ReturnType<typeof fakeClient>;
  let loads: number;
  beforeEach(() => {
    vi.useFakeTimers();
    fake = fakeClient();
    loads = 0;
    configureSearch({ projectId: 'p', indexName: 'idx' }, async () => {
      loads++;
      return fake.client;
    });
    closeSuggestions(SLOT);
  });
  afterEach(() => vi.useRealTimers());

  const settle = () => vi.advanceTimersByTimeAsync(0);

  it('loads the search client once, on first use', async () => {
    await Promise.all([prepareSearch(), prepareSearch()]);
    expect(loads).toBe(1);
  });

  it('waits for a 300 ms pause in typing, then asks once for 12 hits of the last text', async () => {
    typeQuery(SLOT, 'j');
    await vi.advanceTimersByTimeAsync(200);
    typeQuery(SLOT, 'jo');
    await vi.advanceTimersByTimeAsync(299);
    expect(fake.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls).toEqual([[{ indexName: 'idx', params: { query: 'jo', hitsPerPage: 12, page: 0, optionalFilters: [`specialty:${SUBCATEGORY}`] } }]]);
    fake.answer(0, ['José', 'Joan']);
    await settle();
    expect($suggestions.get()).toMatchObject({ slot: SLOT, query: 'jo', status: 'done', nbHits: 2, open: true, active: -1 });
  });

  it('ignores an answer that arrives after newer typing', async () => {
    typeQuery(SLOT, 'jo');
    await vi.advanceTimersByTimeAsync(300);
    typeQuery(SLOT, 'jos');
    await vi.advanceTimersByTimeAsync(300);
    fake.answer(1, ['José']);
    fake.answer(0, ['Joan', 'José']);
    await settle();
    expect($suggestions.get().hits.map((h) => h.name)).toEqual(['José']);
  });

  it('moves the highlight with the arrow keys, wrapping around, and hides on Escape', async () => {
    typeQuery(SLOT, 'a');
    await vi.advanceTimersByTimeAsync(300);
    fake.answer(0, ['A', 'B', 'C']);
    await settle();
    moveActive(1);
    expect($suggestions.get().active).toBe(0);
    moveActive(-1);
    expect($suggestions.get().active).toBe(2);
    moveActive(1);
    expect($suggestions.get().active).toBe(0);
    hideSuggestions();
    expect($suggestions.get()).toMatchObject({ open: false, active: -1 });
    moveActive(-1);
    expect($suggestions.get()).toMatchObject({ open: true, active: 2 });
  });

  it('forgets a search on its way when hidden (Escape): its late answer does not open the suggestions again', async () => {
    typeQuery(SLOT, 'jo');
    await vi.advanceTimersByTimeAsync(300);
    fake.answer(0, ['Joan', 'José']);
    await settle();
    typeQuery(SLOT, 'jos');
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.calls).toHaveLength(2);
    hideSuggestions();
    fake.answer(1, ['José']);
    await settle();
    expect($suggestions.get()).toMatchObject({ open: false, status: 'done', query: 'jo', hits: [{ name: 'Joan' }, { name: 'José' }] });
    // A search still waiting for the pause in typing is not sent at all.
    typeQuery(SLOT, 'josé');
    hideSuggestions();
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.calls).toHaveLength(2);
    expect($suggestions.get().open).toBe(false);
  });

  it('serves every slot from one search instance, each asking with its own sub-category', async () => {
    typeQuery(SLOT, 'jo');
    await vi.advanceTimersByTimeAsync(300);
    fake.answer(0, ['José']);
    await settle();
    const other = 'nominations[Primary Care][Pediatrics][2]';
    closeSuggestions(SLOT);
    typeQuery(other, 'an');
    await vi.advanceTimersByTimeAsync(300);
    expect(fake.calls[1]).toEqual([{ indexName: 'idx', params: { query: 'an', hitsPerPage: 12, page: 0, optionalFilters: ['specialty:Pediatrics'] } }]);
    fake.answer(1, ['Ana']);
    await settle();
    expect($suggestions.get()).toMatchObject({ slot: other, query: 'an', status: 'done', hits: [{ name: 'Ana', __position: 1 }] });
    expect(fake.calls).toHaveLength(2);
    expect(loads).toBe(1);
  });

  it('says the search failed, and searches again at the next typing', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    typeQuery(SLOT, 'jo');
    await vi.advanceTimersByTimeAsync(300);
    fake.fail(0);
    await settle();
    expect($suggestions.get()).toMatchObject({ slot: SLOT, status: 'error', open: true });
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
    typeQuery(SLOT, 'jos');
    await vi.advanceTimersByTimeAsync(300);
    fake.answer(1, ['José']);
    await settle();
    expect($suggestions.get()).toMatchObject({ slot: SLOT, query: 'jos', status: 'done', hits: [{ name: 'José' }] });
  });

  it('closes on empty text without asking', async () => {
    typeQuery(SLOT, '   ');
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.calls).toHaveLength(0);
    expect($suggestions.get().open).toBe(false);
  });

  it('drops a search still on its way when the slot is left', async () => {
    typeQuery(SLOT, 'ann');
    closeSuggestions(SLOT);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('the one suggestion that is exactly the text', () => {
  const hit = (id: string, name: string) => ({ objectID: id, id, name });
  const hits = [hit('a', 'Zoë Nguyen-Laurent'), hit('b', "Siobhán O'Brien"), hit('c', 'Maria Garcia'), hit('d', 'Maria Garcia'), hit('e', 'Maria Garcias')];
  it.each([
    ['case and accents aside', 'zoe nguyen-laurent', 'a'],
    ['a curly apostrophe and extra spaces', '  siobhan   o’brien ', 'b'],
    ['two nominees of the name: none', 'Maria Garcia', undefined],
    ['a prefix is not a name', 'Zoë Nguyen', undefined],
    ['nothing typed', '  ', undefined],
  ])('%s', (_, text, id) => {
    expect(uniqueExactHit(hits, text)?.id).toBe(id);
  });
});
