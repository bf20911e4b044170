import { DETAIL_COLUMNS, type Nominee } from '../../survey/nominees/nominee.struct.ts';
import { nomineeTerms } from '../../survey/nominees/nominee-text.ts';
import { release, wordIndex } from './word-index.ts';

/**
 * The detail columns of a nominee list (specialty, city, practice) as their distinct values: a
 * national list repeats a few thousand specialties, cities and practices, so each value's words
 * are indexed once, and each value lists its nominees, which a query's detail words mark.
 */
export interface DetailValues {
  /** Every distinct value of the detail columns, an empty one for a column left blank. */
  readonly values: readonly string[];
  /** Each nominee's specialty, as the place of its value in `values`. */
  readonly specialty: Uint32Array;
  /** True when a word of some value starts with `term`. */
  starts(term: string): boolean;
  /**
   * The nominees holding, for every term, a value with a word the term starts, as a bit per
   * nominee (bit i % 32 of word i >> 5); the list is reused, valid until the next call.
   */
  holders(terms: readonly string[]): Uint32Array;
}

/** Reads the detail columns of a list: its values, their words, and each value's nominees. */
export function detailValues(nominees: readonly Nominee[]): DetailValues {
  const count = nominees.length;
  const ids = new Map<string, number>();
  const values: string[] = [];
  const columns = DETAIL_COLUMNS.map(() => new Uint32Array(count));
  for (let i = 0; i < count; i++)
    for (let c = 0; c < DETAIL_COLUMNS.length; c++) {
      const value = nominees[i][DETAIL_COLUMNS[c]] ?? '';
      let id = ids.get(value);
      if (id === undefined) {
        id = values.length;
        ids.set(value, id);
        values.push(value);
      }
      columns[c][i] = id;
    }
  ids.clear();
  const index = wordIndex(values.length, (v) => nomineeTerms(values[v]));

  // Each value's nominees, ascending and once (a nominee whose city also names its practice is listed once):
  // counted, then filled in list order.
  const holderStarts = new Uint32Array(values.length + 1);
  const last = new Int32Array(values.length).fill(-1);
  const eachValue = (visit: (v: number, i: number) => void) => {
    for (let i = 0; i < count; i++)
      for (const column of columns)
        if (last[column[i]] !== i) {
          last[column[i]] = i;
          visit(column[i], i);
        }
    last.fill(-1);
  };
  eachValue((v) => holderStarts[v + 1]++);
  for (let v = 0; v < values.length; v++) holderStarts[v + 1] += holderStarts[v];
  const holderList = new Uint32Array(holderStarts[values.length]);
  const next = holderStarts.slice(0, values.length);
  eachValue((v, i) => (holderList[next[v]++] = i));
  const specialty = columns[DETAIL_COLUMNS.indexOf('specialty')];
  release(last, next, ...columns.filter((column) => column !== specialty));

  const bits = new Uint32Array(Math.ceil(count / 32));
  const termBits = new Uint32Array(bits.length);
  return {
    values,
    specialty,
    starts(term) {
      const [from, to] = index.range(term);
      return from < to;
    },
    holders(terms) {
      bits.fill(0);
      terms.forEach((term, t) => {
        const into = t === 0 ? bits : termBits.fill(0);
        const [from, to] = index.range(term);
        for (let k = index.itemStarts[from]; k < index.itemStarts[to]; k++) {
          const v = index.items[k];
          for (let h = holderStarts[v]; h < holderStarts[v + 1]; h++) into[holderList[h] >>> 5] |= 1 << (holderList[h] & 31);
        }
        if (t > 0) for (let b = 0; b < bits.length; b++) bits[b] &= termBits[b];
      });
      return bits;
    },
  };
}
