// The ballots as the signals see them, held column by column: a million ballots are some typed
// arrays and a few buffers of text, not a million objects with their strings and lists. Texts
// that repeat (addresses, browsers, licenses, nominee ids, entries) are kept once each and stood
// for by small numbers; every detector groups and compares those numbers.
import type { SignalBallot, SignalCluster, SignalKind } from './signal-model.ts';

/** A text's first byte when it is kept as the bytes its hex digits spell (hashes as the API keeps them): half its length. */
const HEX = 1;
/** …when it is a UUID (a ballot id) kept as its 16 bytes. */
const UUID = 2;
/** …before a text kept as UTF-8 that begins with one of these bytes itself. */
const ESCAPE = 0;

/** The character codes of the hex digits, and a UUID spelled out. */
const HEX_CHARS = Buffer.from('0123456789abcdef', 'latin1');
const SPELLED = Buffer.alloc(36);

/** The value of a lower-case hex digit's character code, or -1. */
const hexDigit = (c: number) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1);

/** True when `text` is a UUID as written by the API: lower-case hex digits, 8-4-4-4-12. */
function isUuid(text: string): boolean {
  if (text.length !== 36) return false;
  for (let i = 0; i < 36; i++) {
    const c = text.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23 ? c !== 45 : hexDigit(c) < 0) return false;
  }
  return true;
}

/** True when `text` is an even number of lower-case hex digits. */
function isHex(text: string): boolean {
  if (text.length === 0 || text.length % 2 !== 0) return false;
  for (let i = 0; i < text.length; i++) if (hexDigit(text.charCodeAt(i)) < 0) return false;
  return true;
}

/**
 * Frees a typed array's memory at once, rather than whenever the collector next comes by: a
 * hundred megabytes of columns no longer needed would otherwise stay while other work grows.
 * Every view of its memory reads as empty after.
 */
function free(array: ArrayBufferView) {
  // A small array is not worth it (and may live in the heap, where asking for its buffer would copy it out).
  if (array.byteLength < 1 << 16) return;
  const buffer = array.buffer as ArrayBuffer;
  if (!buffer.detached) buffer.transfer(0);
}

/** Frees groups and typed lists a detector is done with, at once (see free). */
export function release(...done: Array<Groups | ArrayBufferView>) {
  for (const item of done) {
    if (ArrayBuffer.isView(item)) free(item);
    else for (const array of [item.key, item.start, item.members, item.of]) free(array);
  }
}

/**
 * A growing buffer of texts, each found again by its number: a million short texts without a
 * million strings on the heap. A text is kept as UTF-8, but hex digests and UUIDs, most of the
 * texts here, as the bytes they spell, behind a first byte that says so: one text, one form.
 */
class TextBuffer {
  private bytes: Buffer;
  private ends: Uint32Array;
  /** How many texts it holds. */
  size = 0;
  /** Bytes in use: where the next text goes. */
  protected used = 0;

  constructor(texts = 256) {
    // Never from Buffer's shared pool: its memory is its own, to free (release).
    this.bytes = Buffer.allocUnsafeSlow(Math.max(1024, texts * 40));
    this.ends = new Uint32Array(Math.max(16, texts));
  }

  /** The text of number `i`. */
  text(i: number): string {
    let start = i ? this.ends[i - 1] : 0;
    const end = this.ends[i];
    const bytes = this.bytes;
    if (start < end) {
      const form = bytes[start];
      if (form === HEX) return bytes.toString('hex', start + 1, end);
      if (form === UUID) {
        // Spelled out in a scratch buffer and read as one flat string: pieces joined would make a rope of nine strings an id.
        let at = 0;
        for (let k = start + 1; k < end; k++) {
          if (at === 8 || at === 13 || at === 18 || at === 23) SPELLED[at++] = 45;
          SPELLED[at++] = HEX_CHARS[bytes[k] >> 4];
          SPELLED[at++] = HEX_CHARS[bytes[k] & 15];
        }
        return SPELLED.toString('latin1', 0, at);
      }
      if (form === ESCAPE) start++;
    }
    // ASCII, nearly every other text here, decodes as Latin-1, which is faster and the same.
    for (let k = start; k < end; k++) if (bytes[k] > 0x7f) return bytes.toString('utf8', start, end);
    return bytes.toString('latin1', start, end);
  }

  /** Writes `text` after the last text without keeping it yet (`keep` does): its length in bytes. */
  protected write(text: string): number {
    const room = this.used + text.length * 3 + 1;
    if (room > this.bytes.length) {
      const bigger = Buffer.allocUnsafeSlow(Math.max(room, this.bytes.length * 2));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.bytes = bigger;
    }
    const bytes = this.bytes;
    const at = this.used;
    const uuid = isUuid(text);
    if (uuid || isHex(text)) {
      bytes[at] = uuid ? UUID : HEX;
      let length = 1;
      for (let i = 0; i < text.length; i += 2) {
        if (text.charCodeAt(i) === 45) i++;
        bytes[at + length++] = hexDigit(text.charCodeAt(i)) * 16 + hexDigit(text.charCodeAt(i + 1));
      }
      return length;
    }
    const escaped = text.length > 0 && text.charCodeAt(0) <= UUID ? 1 : 0;
    if (escaped) bytes[at] = ESCAPE;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c > 0x7f) return escaped + bytes.write(text, at + escaped, 'utf8');
      bytes[at + escaped + i] = c;
    }
    return escaped + text.length;
  }

  /** Frees its memory at once; it holds no text after. */
  release() {
    free(this.bytes);
    free(this.ends);
    this.size = 0;
  }

  /** Keeps the text `write` wrote last, `length` bytes long: its number. */
  protected keep(length: number): number {
    if (this.size === this.ends.length) {
      const bigger = new Uint32Array(this.ends.length * 2);
      bigger.set(this.ends);
      this.ends = bigger;
    }
    this.used += length;
    this.ends[this.size] = this.used;
    return this.size++;
  }

  /** True when the text of number `i` is the `length` bytes written last. */
  protected written(i: number, length: number): boolean {
    const start = i ? this.ends[i - 1] : 0;
    if (this.ends[i] - start !== length) return false;
    const bytes = this.bytes;
    for (let k = 0; k < length; k++) if (bytes[start + k] !== bytes[this.used + k]) return false;
    return true;
  }

  /** A 32-bit hash (FNV-1a) of the `length` bytes written last. */
  protected writtenHash(length: number): number {
    let h = 0x811c9dc5;
    for (let k = this.used; k < this.used + length; k++) h = Math.imul(h ^ this.bytes[k], 0x01000193);
    return h | 0;
  }
}

/** A list of texts, one per ballot (its id, its email), in the order added. */
export class TextColumn extends TextBuffer {
  /** Adds a text: its number. */
  push(text: string): number {
    return this.keep(this.write(text));
  }
}

/** Each distinct text once, numbered from 0 in the order first seen. */
export class Interner extends TextBuffer {
  private hashes: Int32Array;
  /** Open addressing: a text's number plus one, 0 where none. */
  private slots: Int32Array;

  /** `texts`: about how many distinct texts will come, so that its arrays are made once at their size. */
  constructor(texts = 16) {
    super(texts);
    this.hashes = new Int32Array(Math.max(16, texts));
    this.slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(32, 2 * texts + 2))));
  }

  /** The number of `text`, numbering it when it is new. */
  id(text: string): number {
    return this.look(text, true);
  }

  /** The number of `text`, or -1 when it was never numbered. */
  find(text: string): number {
    return this.look(text, false);
  }

  private look(text: string, add: boolean): number {
    const length = this.write(text);
    const hash = this.writtenHash(length);
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    for (let held = this.slots[slot]; held !== 0; held = this.slots[slot]) {
      if (this.hashes[held - 1] === hash && this.written(held - 1, length)) return held - 1;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const id = this.keep(length);
    if (id === this.hashes.length) {
      const bigger = new Int32Array(this.hashes.length * 2);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[id] = hash;
    this.slots[slot] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  override release() {
    super.release();
    free(this.hashes);
    free(this.slots);
  }

  private rehash() {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let slot = this.hashes[id] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

/** A typed array twice as long, its values kept. */
function doubled<T extends Int32Array | Uint32Array | Float64Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * A survey's ballots as the signals see them (SignalBallot), one column per property, ballot `i`
 * at place `i`, in the order received. -1 stands for no address, browser, license or voter on
 * the list; NaN for no fill time. A ballot's votes and write-ins are entries: a vote's entry is
 * "group\0sub-category\0nominee id", a write-in's "group / sub-category / name key", numbered in
 * `entries`; a vote's entry also knows its sub-category (`subs`) and nominee (`nominees`).
 */
export interface SignalTable {
  readonly size: number;
  id(ballot: number): string;
  email(ballot: number): string;
  readonly at: Float64Array;
  readonly client: Int32Array;
  readonly agent: Int32Array;
  readonly fill: Float64Array;
  readonly license: Int32Array;
  readonly voter: Int32Array;
  /** Ballot `i`'s votes are `votes[voteStart[i]]` up to `votes[voteStart[i + 1]]`, entries in the order stored; write-ins likewise. */
  readonly voteStart: Uint32Array;
  readonly votes: Int32Array;
  readonly writeInStart: Uint32Array;
  readonly writeIns: Int32Array;
  readonly clients: Interner;
  readonly agents: Interner;
  readonly licenses: Interner;
  readonly nominees: Interner;
  readonly subs: Interner;
  readonly entries: Interner;
  /** A vote entry's sub-category and nominee; -1 for a write-in's. */
  readonly entrySub: Int32Array;
  readonly entryNominee: Int32Array;
  /** Frees every column but the ids at once (the clusters read their ids from those): the table is done with. */
  release(): void;
}

/** Builds a SignalTable a ballot at a time: `ballot`, then its `vote`s and `writeIn`s, then the next; `finish` when all are in. */
export class SignalTableBuilder {
  private ids: TextColumn;
  private emails: TextColumn;
  private size = 0;
  private at: Float64Array;
  private client: Int32Array;
  private agent: Int32Array;
  private fill: Float64Array;
  private license: Int32Array;
  private voter: Int32Array;
  private voteStart: Uint32Array;
  private votes: Int32Array;
  private voteCount = 0;
  private writeInStart: Uint32Array;
  private writeIns = new Int32Array(64);
  private writeInCount = 0;
  private clients: Interner;
  private agents = new Interner();
  private licenses: Interner;
  private nominees = new Interner();
  private subs = new Interner();
  private entries = new Interner();
  private entrySub = new Int32Array(64);
  private entryNominee = new Int32Array(64);
  private voteEntries = new Map<string, Map<string, Map<string, number>>>();

  /** `expected`: about how many ballots will come, so that the columns are made once at their size. */
  constructor(expected = 64) {
    const n = Math.max(16, expected + 1);
    this.ids = new TextColumn(n);
    this.emails = new TextColumn(n);
    // Nearly every ballot has an address and a license of its own.
    this.clients = new Interner(n);
    this.licenses = new Interner(n);
    this.at = new Float64Array(n);
    this.client = new Int32Array(n);
    this.agent = new Int32Array(n);
    this.fill = new Float64Array(n);
    this.license = new Int32Array(n);
    this.voter = new Int32Array(n);
    this.voteStart = new Uint32Array(n + 1);
    this.writeInStart = new Uint32Array(n + 1);
    this.votes = new Int32Array(n * 6);
  }

  /** Starts the next ballot: its id, time (milliseconds), hashes, fill time, email and license as compared, and nominee id when on the list. */
  ballot(
    id: string,
    at: number,
    clientHash: string | null,
    agentHash: string | null,
    fillSeconds: number | null,
    email: string,
    license: string,
    nomineeId?: string,
  ) {
    if (this.size + 1 >= this.at.length) {
      this.at = doubled(this.at);
      this.client = doubled(this.client);
      this.agent = doubled(this.agent);
      this.fill = doubled(this.fill);
      this.license = doubled(this.license);
      this.voter = doubled(this.voter);
      this.voteStart = doubled(this.voteStart);
      this.writeInStart = doubled(this.writeInStart);
    }
    const i = this.size++;
    this.ids.push(id);
    this.emails.push(email);
    this.at[i] = at;
    // No hash and an empty one are alike: neither groups ballots.
    this.client[i] = clientHash ? this.clients.id(clientHash) : -1;
    this.agent[i] = agentHash ? this.agents.id(agentHash) : -1;
    this.fill[i] = fillSeconds === null ? Number.NaN : fillSeconds;
    this.license[i] = license ? this.licenses.id(license) : -1;
    this.voter[i] = nomineeId ? this.nominees.id(nomineeId) : -1;
    this.voteStart[i] = this.voteCount;
    this.voteStart[i + 1] = this.voteCount;
    this.writeInStart[i] = this.writeInCount;
    this.writeInStart[i + 1] = this.writeInCount;
  }

  /** A vote of the current ballot. */
  vote(group: string, subcategory: string, nomineeId: string) {
    // Six million votes name some thousands of entries: found by group, sub-category and nominee in maps, no text built.
    let bySub = this.voteEntries.get(group);
    if (!bySub) this.voteEntries.set(group, (bySub = new Map()));
    let byNominee = bySub.get(subcategory);
    if (!byNominee) bySub.set(subcategory, (byNominee = new Map()));
    let entry = byNominee.get(nomineeId);
    if (entry === undefined) {
      entry = this.entry(`${group}\u0000${subcategory}\u0000${nomineeId}`);
      byNominee.set(nomineeId, entry);
      if (this.entrySub[entry] < 0) {
        this.entrySub[entry] = this.subs.id(`${group}\u0000${subcategory}`);
        this.entryNominee[entry] = this.nominees.id(nomineeId);
      }
    }
    if (this.voteCount === this.votes.length) this.votes = doubled(this.votes);
    this.votes[this.voteCount++] = entry;
    this.voteStart[this.size] = this.voteCount;
  }

  /** A write-in of the current ballot, as "group / sub-category / name key". */
  writeIn(text: string) {
    const entry = this.entry(text);
    if (this.writeInCount === this.writeIns.length) this.writeIns = doubled(this.writeIns);
    this.writeIns[this.writeInCount++] = entry;
    this.writeInStart[this.size] = this.writeInCount;
  }

  private entry(text: string): number {
    const known = this.entries.size;
    const entry = this.entries.id(text);
    if (entry === this.entrySub.length) {
      this.entrySub = doubled(this.entrySub);
      this.entryNominee = doubled(this.entryNominee);
    }
    if (entry === known) {
      this.entrySub[entry] = -1;
      this.entryNominee[entry] = -1;
    }
    return entry;
  }

  /** The table of every ballot added. */
  finish(): SignalTable {
    const n = this.size;
    const { ids, emails } = this;
    return {
      size: n,
      // Bound each to its own column: a cluster that keeps `id` keeps the ids alone, not the emails.
      id: ids.text.bind(ids),
      email: emails.text.bind(emails),
      at: this.at.subarray(0, n),
      client: this.client.subarray(0, n),
      agent: this.agent.subarray(0, n),
      fill: this.fill.subarray(0, n),
      license: this.license.subarray(0, n),
      voter: this.voter.subarray(0, n),
      voteStart: this.voteStart.subarray(0, n + 1),
      votes: this.votes.subarray(0, this.voteCount),
      writeInStart: this.writeInStart.subarray(0, n + 1),
      writeIns: this.writeIns.subarray(0, this.writeInCount),
      clients: this.clients,
      agents: this.agents,
      licenses: this.licenses,
      nominees: this.nominees,
      subs: this.subs,
      entries: this.entries,
      entrySub: this.entrySub.subarray(0, this.entries.size),
      entryNominee: this.entryNominee.subarray(0, this.entries.size),
      release: () => {
        for (const column of [
          this.at,
          this.client,
          this.agent,
          this.fill,
          this.license,
          this.voter,
          this.voteStart,
          this.votes,
          this.writeInStart,
          this.writeIns,
        ])
          free(column);
        for (const texts of [this.emails, this.clients, this.agents, this.licenses, this.nominees, this.subs, this.entries]) texts.release();
        free(this.entrySub);
        free(this.entryNominee);
        this.voteEntries.clear();
      },
    };
  }
}

/**
 * A cluster of the table's ballots, as SignalCluster has it, but holding its ballots as numbers:
 * `ballotIds` is read from the table's ids each time it is asked for (a fresh list), so that a
 * million flagged ballots cost four bytes each, not a string each, and the rest of the table can go.
 */
export function clusterOf(table: SignalTable, found: { kind: SignalKind; ballots: ArrayLike<number>; evidence: string; score: number }): SignalCluster {
  const ballots = Int32Array.from(found.ballots);
  const { id } = table;
  const cluster = { kind: found.kind } as SignalCluster;
  Object.defineProperty(cluster, 'ballotIds', { enumerable: true, get: () => Array.from(ballots, (i) => id(i)) });
  cluster.evidence = found.evidence;
  cluster.score = found.score;
  members.set(cluster, ballots);
  return cluster;
}

/** The ballots of each cluster of clusterOf, as the table's numbers. */
const members = new WeakMap<SignalCluster, Int32Array>();

/** How many ballots a cluster holds, without reading their ids. */
export const clusterSize = (cluster: SignalCluster): number => members.get(cluster)?.length ?? cluster.ballotIds.length;

/**
 * How many ballots the clusters hold between them, each counted once: a byte a ballot of the
 * table for the clusters of clusterOf, rather than a string a ballot (a hundred megabytes when
 * a million ballots are flagged); their ids for clusters given whole.
 */
export function distinctBallots(clusters: readonly SignalCluster[]): number {
  const numbered = clusters.map((cluster) => members.get(cluster)).filter((ballots) => ballots !== undefined);
  const seen = new Uint8Array(numbered.reduce((most, ballots) => ballots.reduce((m, i) => Math.max(m, i + 1), most), 0));
  let count = 0;
  for (const ballots of numbered)
    for (const i of ballots)
      if (!seen[i]) {
        seen[i] = 1;
        count++;
      }
  const ids = new Set(clusters.filter((cluster) => !members.has(cluster)).flatMap((cluster) => cluster.ballotIds));
  return count + ids.size;
}

/**
 * The table of ballots given as objects, in their order: how the tests hand ballots to the detectors.
 * @internal Kept for its tests.
 */
export function signalTable(ballots: readonly SignalBallot[]): SignalTable {
  const table = new SignalTableBuilder(ballots.length);
  for (const b of ballots) {
    table.ballot(b.id, b.at, b.clientHash, b.agentHash, b.fillSeconds, b.email, b.license, b.nomineeId);
    for (const vote of b.votes) table.vote(vote.group, vote.subcategory, vote.nomineeId);
    for (const writeIn of b.writeIns) table.writeIn(writeIn);
  }
  return table.finish();
}

/**
 * Ballots grouped by keys: group `g` has the key `key[g]` and the ballots `members[start[g]]` up
 * to `members[start[g + 1]]`, in ballot order; groups come in the order of their first ballot.
 * `of[key]` is the key's group, -1 when it has none.
 */
export interface Groups {
  readonly count: number;
  readonly key: Int32Array;
  readonly start: Int32Array;
  readonly members: Int32Array;
  readonly of: Int32Array;
}

/** A group's ballots (a view, not a copy). */
export const membersOf = (groups: Groups, g: number): Int32Array => groups.members.subarray(groups.start[g], groups.start[g + 1]);

/**
 * Groups ballots 0 to `size` - 1 by the keys `keysOf` gives each (numbers below `keys`, each
 * at most once a ballot; none leaves the ballot out): the grouping a Map of lists gives, in
 * typed arrays. `keysOf` is called twice a ballot and must give the same keys both times.
 */
export function groupBy(size: number, keys: number, keysOf: (ballot: number, emit: (key: number) => void) => void): Groups {
  // Counted by key first, in typed arrays: a million keys (an address each) make no million-element lists.
  const of = new Int32Array(keys).fill(-1);
  const order = new Int32Array(keys);
  const counts = new Int32Array(keys);
  let count = 0;
  let total = 0;
  const tally = (key: number) => {
    if (of[key] < 0) {
      of[key] = count;
      order[count++] = key;
    }
    counts[key]++;
    total++;
  };
  for (let i = 0; i < size; i++) keysOf(i, tally);
  const start = new Int32Array(count + 1);
  for (let g = 0; g < count; g++) start[g + 1] = start[g] + counts[order[g]];
  // counts now serves as each key's next free place.
  for (let g = 0; g < count; g++) counts[order[g]] = start[g];
  const members = new Int32Array(total);
  let ballot = 0;
  const place = (key: number) => {
    members[counts[key]++] = ballot;
  };
  for (; ballot < size; ballot++) keysOf(ballot, place);
  return { count, key: order.subarray(0, count), start, members, of };
}
