import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { entryHash, GENESIS_HASH, publicationAnchor, sessionHash, verifyChain, type ChainEntry } from '../../../src/server/db/audit-chain.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The fields an entry's hash covers, in the order of the canonical form. */
const HASHED_FIELDS = [
  'seq',
  'id',
  'project_id',
  'at',
  'actor',
  'actor_email',
  'action',
  'subject',
  'reason',
  'details',
  'via',
  'role',
  'session',
  'prev_hash',
] as const;

/** The fields of an entry before it is chained: the n-th act of a survey's trail. */
function act(n: number): Omit<ChainEntry, 'seq' | 'prev_hash' | 'hash'> {
  return {
    id: `0190a000-0000-7000-8000-00000000000${n}`,
    project_id: 'peer-check',
    at: `2030-01-0${n}T10:00:00.000Z`,
    actor: n % 2 ? 'editor' : 'Ann Lee',
    actor_email: n % 2 ? null : 'ann@peer.example',
    action: n % 2 ? 'exclude' : 'include',
    subject: `ballot-${n}`,
    reason: `reason ${n}`,
    details: n === 2 ? '{"ballot_id":"b-2"}' : null,
    via: n % 2 ? 'command line' : 'console',
    role: n % 2 ? null : 'editor',
    session: n % 2 ? null : sessionHash(`session-${n}`),
  };
}

/** A trail of `count` entries chained as appendAudit chains them. */
function chain(count: number, from: Array<Omit<ChainEntry, 'seq' | 'prev_hash' | 'hash'>> = []): Array<ChainEntry & { seq: number; hash: string }> {
  const entries: Array<ChainEntry & { seq: number; hash: string }> = [];
  for (let n = 1; n <= count; n++) {
    const fields = { ...(from[n - 1] ?? act(n)), seq: n, prev_hash: entries.at(-1)?.hash ?? GENESIS_HASH };
    entries.push({ ...fields, hash: entryHash(fields) });
  }
  return entries;
}

/** An entry as the check's messages name it. */
const named = (entry: ChainEntry) => `entry ${entry.seq} (id ${entry.id}, at ${entry.at})`;

describe('the canonical form', () => {
  test('is the JSON array of the hashed fields in their fixed order, which a short script hashes alike', () => {
    const entry = {
      seq: 7,
      id: '0190a000-0000-7000-8000-000000000007',
      project_id: 'peer-check',
      at: '2030-01-07T10:00:00.000Z',
      actor: 'Zoë "Z" Ng',
      actor_email: null,
      action: 'exclude',
      subject: 'ballot-7',
      reason: 'two lines\nand a tab\t',
      details: '{"ballot_id":"b-7"}',
      via: 'command line' as const,
      role: null,
      session: null,
      prev_hash: 'ab'.repeat(32),
    };
    const text =
      '[7,"0190a000-0000-7000-8000-000000000007","peer-check","2030-01-07T10:00:00.000Z","Zoë \\"Z\\" Ng",null,"exclude","ballot-7",' +
      `"two lines\\nand a tab\\t","{\\"ballot_id\\":\\"b-7\\"}","command line",null,null,"${'ab'.repeat(32)}"]`;
    expect(entryHash(entry)).toBe(sha256(text));
    expect(entryHash(entry)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a field left out counts as null', () => {
    const [entry] = chain(1);
    expect(entryHash({ ...entry, role: undefined as unknown as null })).toBe(entryHash({ ...entry, role: null }));
  });

  test.each(HASHED_FIELDS.map((field) => [field]))('changing %s changes the hash', (field) => {
    const [entry] = chain(1);
    const changed = { ...entry, [field]: field === 'seq' ? 2 : `${entry[field] ?? ''}x` };
    expect(entryHash(changed)).not.toBe(entryHash(entry));
  });

  test('a session is kept as its SHA-256, never as itself', () => {
    expect(sessionHash('s3cr3t-session')).toBe(sha256('s3cr3t-session'));
    expect(sessionHash('s3cr3t-session')).not.toContain('s3cr3t');
  });
});

describe('verifyChain', () => {
  test('a whole trail checks, whatever order it is given in, and names its head', () => {
    const trail = chain(5);
    const check = verifyChain([trail[3], trail[0], trail[4], trail[2], trail[1]]);
    expect(check).toEqual({ ok: true, entries: 5, head: trail[4].hash, message: `verified: 5 entries, head ${trail[4].hash}` });
  });

  test('an empty trail checks, with no head', () => {
    expect(verifyChain([])).toMatchObject({ ok: true, entries: 0, head: null, message: 'verified: 0 entries, head none (the trail is empty)' });
  });

  test('a changed entry is named: its hash no longer matches its content', () => {
    const trail = chain(5);
    trail[2] = { ...trail[2], reason: 'a better reason' };
    expect(verifyChain(trail)).toMatchObject({
      ok: false,
      problem: 'changed',
      entry: { seq: 3, id: trail[2].id },
      message: `${named(trail[2])} was changed: its hash does not match its content`,
    });
  });

  test('an entry removed in the middle is named by its number, with the entry after the gap', () => {
    const trail = chain(5);
    expect(verifyChain(trail.toSpliced(2, 1))).toMatchObject({
      ok: false,
      problem: 'removed',
      entry: { seq: 4 },
      message: `entry 3 was removed: ${named(trail[3])} follows entry 2, and its prev_hash does not match entry 2`,
    });
    expect(verifyChain(trail.toSpliced(1, 2)).message).toBe(
      `entries 2 to 3 were removed: ${named(trail[3])} follows entry 1, and its prev_hash does not match entry 1`,
    );
  });

  test('the first entry removed: the trail no longer begins at the genesis value', () => {
    const trail = chain(3);
    expect(verifyChain(trail.slice(1)).message).toBe(
      `entry 1 was removed: the trail begins at ${named(trail[1])}, and its prev_hash does not match the genesis value`,
    );
  });

  test('the newest entry removed leaves a chain that checks; the head noted before shows it', () => {
    const trail = chain(5);
    const shorter = trail.slice(0, 4);
    expect(verifyChain(shorter)).toMatchObject({ ok: true, entries: 4, head: trail[3].hash });
    const noted = { source: 'the head given (--head)', hash: trail[4].hash.slice(0, 16) };
    expect(verifyChain(shorter, [noted])).toMatchObject({
      ok: false,
      problem: 'anchor',
      message: `the head given (--head) names an entry with hash ${trail[4].hash.slice(0, 16)}…, which is not in the trail: it was removed, or it or an entry before it was changed and the chain written again after it`,
    });
    expect(verifyChain(trail, [noted]).message).toBe(`verified: 5 entries, head ${trail[4].hash}; the head given (--head) is entry 5`);
  });

  test('two entries swapped in place: the first of them is out of line', () => {
    const trail = chain(5);
    const swapped = [trail[0], { ...trail[2], seq: 2 }, { ...trail[1], seq: 3 }, trail[3], trail[4]];
    expect(verifyChain(swapped)).toMatchObject({
      ok: false,
      problem: 'reordered',
      entry: { seq: 2, id: trail[2].id },
      message: `entry 2 (id ${trail[2].id}, at ${trail[2].at}) was removed or reordered: its prev_hash does not match entry 1`,
    });
  });

  test("two entries' ids and times swapped: the first of them no longer hashes to what it holds", () => {
    const trail = chain(5);
    const swapped = [trail[0], { ...trail[1], id: trail[2].id, at: trail[2].at }, { ...trail[2], id: trail[1].id, at: trail[1].at }, trail[3], trail[4]];
    expect(verifyChain(swapped)).toMatchObject({ ok: false, problem: 'changed', entry: { seq: 2, id: trail[2].id } });
  });

  test('a second entry with the number of another (a fork) is named', () => {
    const trail = chain(4);
    const fork = { ...act(9), seq: 3, prev_hash: trail[1].hash };
    const forked = [...trail, { ...fork, hash: entryHash(fork) }];
    const check = verifyChain(forked);
    expect(check).toMatchObject({ ok: false, problem: 'repeated', entry: { seq: 3 } });
    expect(check.message).toContain('repeats the number of the entry before it: the trail was forked, or an entry copied into it');
  });

  test('a missing hash or number reads as a change', () => {
    const trail = chain(3);
    expect(verifyChain([trail[0], { ...trail[1], hash: null }, trail[2]])).toMatchObject({ ok: false, entry: { seq: 2 }, problem: 'changed' });
    expect(verifyChain([trail[0], trail[1], { ...trail[2], seq: null }])).toMatchObject({ ok: false, problem: 'changed', entry: { seq: null } });
  });

  test('a chain written again after a change checks alone, but not against a hash noted before', () => {
    const trail = chain(5);
    const acts = trail.map(({ seq: _, prev_hash: __, hash: ___, ...fields }) => fields);
    acts[2] = { ...acts[2], reason: 'rewritten' };
    const rewritten = chain(5, acts);
    expect(verifyChain(rewritten)).toMatchObject({ ok: true, entries: 5 });
    const published = publicationAnchor({ audit_entry: trail[3].id, audit_head: trail[3].hash }, 'the published results')!;
    expect(verifyChain(rewritten, [published])).toMatchObject({
      ok: false,
      problem: 'anchor',
      message: `the published results names entry ${trail[3].id} with hash ${trail[3].hash.slice(0, 16)}…, which is not in the trail: it was removed, or it or an entry before it was changed and the chain written again after it`,
    });
    // An entry before the change is still where it was noted.
    expect(verifyChain(rewritten, [{ source: 'the head given (--head)', hash: trail[1].hash }]).message).toContain('the head given (--head) is entry 2');
  });
});

describe('publicationAnchor', () => {
  test('none for a publication that named no entry; the id alone for one published before the chain', () => {
    expect(publicationAnchor({ audit_entry: 'none', audit_head: 'none' }, 'results.json')).toBeUndefined();
    expect(publicationAnchor({ audit_entry: 'e-1' }, 'results.json')).toEqual({ source: 'results.json', id: 'e-1' });
    expect(publicationAnchor({ audit_entry: 'e-1', audit_head: 'ab'.repeat(32) }, 'results.json')).toEqual({
      source: 'results.json',
      id: 'e-1',
      hash: 'ab'.repeat(32),
    });
  });

  test('an entry named by id that is gone fails the check; one still there passes', () => {
    const trail = chain(3);
    expect(verifyChain(trail, [publicationAnchor({ audit_entry: trail[2].id }, 'results.json')!])).toMatchObject({ ok: true });
    expect(verifyChain(trail.slice(0, 2), [publicationAnchor({ audit_entry: trail[2].id }, 'results.json')!]).message).toContain(
      `results.json names entry ${trail[2].id}, which is not in the trail`,
    );
  });
});
