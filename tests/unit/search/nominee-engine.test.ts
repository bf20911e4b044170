import { describe, expect, it } from 'vitest';
import { createNomineeEngine } from '../../../src/server/search/nominee-engine.ts';
import type { Nominee } from '../../../src/survey/nominees/nominee.struct.ts';
import { foldText, nomineeTerms, queryTerms } from '../../../src/survey/nominees/nominee-text.ts';
import { generateNominees } from '../../../bin/lib/nominee-generator.ts';

const list: Nominee[] = [
  { id: 'n1', name: 'José Álvarez-Ruiz', specialty: 'Cardiology', city: 'Riverside' },
  { id: 'n2', name: "Siobhán O'Brien", specialty: 'Pediatrics', city: 'Northgate' },
  { id: 'n3', name: 'Josephine Anderson', specialty: 'Family Medicine' },
  { id: 'n4', name: 'Ann Lee', specialty: 'Cardiology' },
  { id: 'n5', name: 'Anna Leeds', specialty: 'Pulmonology' },
  { id: 'n6', name: 'Benjamin Castellanos', specialty: 'Orthopedic Surgery' },
  { id: 'n7', name: 'Łukasz Kowalczyk', specialty: 'Neurosurgery' },
  { id: 'n8', name: 'Maria Garcia', specialty: 'Family Medicine', city: 'Northgate' },
  { id: 'n9', name: 'Maria Garcia', specialty: 'Cardiology', city: 'Lakeview' },
  { id: 'n10', name: 'Marta Smyth', specialty: 'Cardiology' },
  { id: 'n11', name: 'Mark Smith', specialty: 'Radiology' },
  { id: 'n12', name: 'Bo Chen', specialty: 'Pediatrics' },
  { id: 'n13', name: 'Mary-Kate D’Angelo', specialty: 'Internal Medicine' },
];
const engine = createNomineeEngine(list);
const ids = (query: string) => engine.search(query).hits.map((hit) => hit.id);

describe('nominee text', () => {
  it('folds case and accents, including letters Unicode does not decompose', () => {
    expect(foldText('José ŁUKASZ Ørsted Weiß Þóra')).toBe('jose lukasz orsted weiss thora');
  });
  it('indexes hyphenated parts, and apostrophe names by parts and whole', () => {
    expect(nomineeTerms("Mary-Kate O'Brien")).toEqual(['mary', 'kate', 'o', 'brien', 'obrien']);
  });
  it('reads a query as words, apostrophe names whole, a leading title dropped', () => {
    expect(queryTerms('Dr. O’Brien-Lee')).toEqual(['obrien', 'lee']);
    expect(queryTerms('dr')).toEqual(['dr']);
  });
});

describe('the local search engine', () => {
  // query → ids that must be among the hits (in this order when `ordered`), or none.
  const cases: Array<[string, string, string[], boolean?]> = [
    ['is accent insensitive', 'jose', ['n1', 'n3']],
    ['folds accents typed in the query too', 'JOSÉ ÁLVAREZ', ['n1']],
    ['folds letters without a decomposition', 'lukasz', ['n7']],
    ['matches a prefix of every word', 'jo alv', ['n1']],
    ['matches any word order', 'garcia maria', ['n8', 'n9']],
    ['needs every word to match', 'maria chen', []],
    ['finds a hyphenated name by either part', 'ruiz', ['n1']],
    ['finds a hyphenated name typed whole', 'alvarez-ruiz', ['n1']],
    ['finds an apostrophe name typed with it', "o'brien", ['n2']],
    ['finds an apostrophe name typed without it', 'obrien', ['n2']],
    ['finds an apostrophe name by its part', 'brien', ['n2']],
    ['reads a curly apostrophe as a straight one', "d'angelo", ['n13']],
    ['checks every word of a name of more than four words', "kate d'angelo mary", ['n13']],
    ['checks every word of a name of more than four words, with a typo', 'mary-kate dangelp', ['n13']],
    ['tolerates one typo in a word of five letters or more', 'castelanos', ['n6']],
    ['tolerates a typo in a first and last name', 'benjamn castellanoz', ['n6']],
    ['allows no typo in words under five letters', 'bo chan', []],
    ['allows no more than one typo', 'castelanoz', []],
    ['narrows by a word of a detail column', 'maria lakeview', ['n9']],
    ['narrows by a detail prefix', 'garcia cardio', ['n9']],
    ['needs every detail word to match', 'northgate pediatrics', ['n2'], true],
    ['narrows short words by a detail word', 'ma northgate', ['n8'], true],
    ['lists nominees by a detail alone, in name order', 'pulmonology', ['n5'], true],
    ['prefers a name to a detail starting with the same letters, the nearest words first', 'mar', ['n11', 'n13', 'n8', 'n9', 'n10'], true],
    ['drops a title before a name', 'Dr. Chen', ['n12']],
    ['ranks an exact word before a longer word it begins', 'ann', ['n4', 'n5'], true],
    ['ranks prefix matches before typo matches', 'smith', ['n11', 'n10'], true],
    ['answers short words from the prefix table', 'an le', ['n4', 'n5'], true],
  ];
  it.each(cases)('%s: %j', (_, query, expected, ordered) => {
    const found = ids(query);
    if (expected.length === 0) expect(found).toEqual([]);
    else if (ordered) expect(found.slice(0, expected.length)).toEqual(expected);
    else expect(found).toEqual(expect.arrayContaining(expected));
  });

  describe('for a slot, nominees of its sub-category first', () => {
    const forSlot = (query: string, preferSpecialty: string) => engine.search(query, { preferSpecialty }).hits.map((hit) => hit.id);
    it.each([
      ['a short query: the specialty first, each part nearest words first', 'mar', 'Cardiology', ['n9', 'n10', 'n11', 'n13', 'n8']],
      ['a name typed in full: the namesake of the slot first', 'maria garcia', 'Cardiology', ['n9', 'n8']],
      ['the other namesake in the other slot', 'maria garcia', 'Family Medicine', ['n8', 'n9']],
      ['case and accents folded in the sub-category', 'mar', 'family medicíne', ['n8']],
      ['a typo still ranks after a match without one', 'smith', 'Cardiology', ['n11', 'n10']],
      ['a sub-category no nominee has changes nothing', 'mar', 'Dermatology', ['n11', 'n13', 'n8', 'n9', 'n10']],
      ['a detail alone: the specialty first', 'northgate', 'Pediatrics', ['n2', 'n8']],
    ])('%s', (_, query, specialty, expected) => {
      expect(forSlot(query, specialty).slice(0, expected.length)).toEqual(expected);
    });
  });

  it('ranks a query of one to three letters by relevance, not alphabet', () => {
    const ranked = createNomineeEngine([
      { id: 'a', name: 'Aaron Martinez' },
      { id: 'b', name: 'Abel Martinez' },
      { id: 'c', name: 'Zed Mar' },
      { id: 'd', name: 'Yara Mary' },
    ]);
    expect(ranked.search('mar').hits.map((hit) => hit.id)).toEqual(['c', 'd', 'a', 'b']);
  });

  it('answers in Algolia hit shape, with the detail columns', () => {
    expect(engine.search('kowalczyk').hits[0]).toEqual({ objectID: 'n7', id: 'n7', name: 'Łukasz Kowalczyk', specialty: 'Neurosurgery' });
  });

  it('returns 12 hits a page, with the count of all and further pages', () => {
    const big = createNomineeEngine(generateNominees({ count: 500, seed: 7, specialties: ['Cardiology'] }));
    const first = big.search('cardiology');
    expect(first).toMatchObject({ nbHits: 500, page: 0, nbPages: 42, hitsPerPage: 12 });
    expect(first.hits).toHaveLength(12);
    const second = big.search('cardiology', { page: 1 });
    expect(second.hits).toHaveLength(12);
    expect(second.hits.map((h) => h.id)).not.toContain(first.hits[0].id);
    expect(big.search('cardiology', { page: 41 }).hits).toHaveLength(500 - 41 * 12);
  });

  it('pages through the same order as one long page, for a slot too', () => {
    const big = createNomineeEngine(generateNominees({ count: 3000, seed: 11, specialties: ['Cardiology', 'Pediatrics'] }));
    for (const query of ['m', 'mar', 'maria', 'smith', 'smyth', 'a s', 'jo', 'riverside', 'a cardio', 'ann'])
      for (const preferSpecialty of [undefined, 'Pediatrics']) {
        const whole = big.search(query, { hitsPerPage: 3000, preferSpecialty });
        expect(whole.nbHits).toBeGreaterThan(12);
        const pages = Array.from({ length: Math.ceil(whole.nbHits / 12) }, (_, page) => big.search(query, { page, preferSpecialty }));
        expect(pages.flatMap((one) => one.hits.map((hit) => hit.id))).toEqual(whole.hits.map((hit) => hit.id));
        expect(pages.every((one) => one.nbHits === whole.nbHits)).toBe(true);
      }
  });

  it('orders names of any script as JavaScript orders their folded text, namesakes in file order', () => {
    const names = ['Zoë Adams', 'ann lee', 'Ann Lee', 'Ärne Berg', 'Иван Петров', 'Ana Ōta', '李 明', 'Ольга Ан', 'Ωmega Test', 'Ann-Lee', 'anna'];
    const scripts = createNomineeEngine(names.map((name, i) => ({ id: `s${i}`, name, city: 'Harbor' })));
    const expected = names
      .map((name, i) => ({ key: foldText(name), id: `s${i}` }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ id }) => id);
    expect(scripts.search('harbor', { hitsPerPage: 12 }).hits.map((hit) => hit.id)).toEqual(expected);
  });

  it('counts a nominee once when one value fills two of its detail columns', () => {
    const twice = createNomineeEngine([
      { id: 'b', name: 'Bo Chen', city: 'Lakeview' },
      { id: 'a', name: 'Ann Lee', city: 'Lakeview', practice: 'Lakeview' },
    ]);
    expect(twice.search('lakeview')).toMatchObject({ nbHits: 2, hits: [{ id: 'a' }, { id: 'b' }] });
  });

  it('lists a name without letters for an empty query only', () => {
    const odd = createNomineeEngine([
      { id: 'x', name: '—' },
      { id: 'y', name: 'Ann Lee' },
    ]);
    expect(odd.search('').hits.map((hit) => hit.id)).toEqual(['x', 'y']);
    expect(odd.search('ann lee').hits.map((hit) => hit.id)).toEqual(['y']);
    expect(odd.search('a').hits.map((hit) => hit.id)).toEqual(['y']);
  });

  it('lists nominees in file order for an empty query, as Algolia does', () => {
    expect(engine.search('  ').hits.map((h) => h.id)).toEqual(list.slice(0, 12).map((n) => n.id));
    expect(engine.search('').nbHits).toBe(list.length);
  });
});
