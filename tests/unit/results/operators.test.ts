import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { exportBallots } from '../../../src/results/export/export.ts';
import { csvLine } from '../../../src/results/export/csv.ts';
import { DecidedAlready, DecidedOtherwise, resolveWriteIn, writeInGroups } from '../../../src/results/writeins/writeins.ts';
import { appendNominees, nomineesToAppend } from '../../../src/results/writeins/nominee-append.ts';
import { confirmReservation, releaseReservation } from '../../../src/results/reservations.ts';
import { OperatorError } from '../../../src/results/operator.ts';
import { writeInDecisionLog, writeInDecisionsInForce } from '../../../src/results/writeins/writeins.repository.ts';
import { claimedTiles } from '../../../src/server/reservations/tile-claims.repository.ts';
import { confirmedLabels } from '../../../src/server/reservations/decisions.repository.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { loadNominees } from '../../../src/survey/nominees/nominee-file.ts';
import { FIXTURE_SURVEYS, peerCheck, scratchDatabase, storeBallots } from '../../support/results-db.ts';

/** One cell as csvLine writes it: a line of that cell alone, without its CRLF. */
const csvCell = (value: string | number | null | undefined): string => csvLine([value]).slice(0, -2);

const { survey, nominees } = peerCheck();
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let ids: string[];

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  ids = await storeBallots(db, [
    {
      at: '2030-01-01T09:00:00Z',
      answers: { 'name-first': '=HYPERLINK("x")', 'name-last': 'Lee, Jr.' },
      votes: { Cardiology: ['c-2', 'c-3'] },
      writeIns: [['Dr. Chen  Wie', 'Cardiology']],
      faces: 'cardiology',
    },
    {
      at: '2030-01-01T09:01:00Z',
      answers: { 'name-first': 'Ada', 'name-last': 'Roe' },
      votes: { Dermatology: ['d-1'] },
      writeIns: [
        ['chen wie', 'Cardiology'],
        ['Hana Sato', 'Dermatology'],
      ],
      faces: 'cardiology',
    },
  ]);
});
afterAll(() => scratch?.close());

async function exported(format: 'csv' | 'jsonl', pageSize = 1) {
  let out = '';
  await exportBallots(db, { survey, nominees, format, pageSize, write: (chunk) => void (out += chunk), now: new Date('2030-02-01T00:00:00Z') });
  return out;
}

describe('csv', () => {
  test('quotes commas, quotes and line breaks; defuses formulas in text, not in numbers', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', '=1+1', '-2', 3, -4, null])).toBe('"a,b","say ""hi""","two\nlines",\'=1+1,\'-2,3,-4,\r\n');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});

describe('export', () => {
  test('CSV: a header from the layout, a line per ballot with slots, write-ins and reservations', async () => {
    const [header, first, second, end] = (await exported('csv')).split('\r\n');
    const columns = header.split(',');
    expect(columns.slice(0, 11)).toEqual([
      'ballot_id',
      'submitted_at',
      'link',
      'personal_secret',
      'status',
      'verified_email',
      'name-first',
      'name-last',
      'medical-license',
      'email',
      'medical-practice',
    ]);
    expect(columns).toContain('Medicine / Cardiology #3 name');
    expect(columns.slice(-9)).toEqual([
      'write-in #3 name',
      'write-in #3 category',
      'write-in #3 nominee_id',
      'faces',
      'faces status',
      'faces outcome',
      'asktheexpert',
      'asktheexpert status',
      'asktheexpert outcome',
    ]);
    expect(first).toBe(
      `${ids[0]},2030-01-01T09:00:00.000Z,public,,current,,"'=HYPERLINK(""x"")","Lee, Jr.",,,,c-2,Bo Lindqvist,c-3,Chen Wei,,,,,,,,,Dr. Chen  Wie,Medicine / Cardiology,,,,,,,,cardiology,reserved,held,,,`,
    );
    expect(second).toMatch(/,cardiology,lost,lost,,,$/);
    expect(end).toBe('');
  });

  test('CSV: a write_in_limit lowered after ballots came in drops none of their write-ins', async () => {
    const lowered = { ...survey, config: { ...survey.config, write_in_limit: 1 } };
    let out = '';
    await exportBallots(db, { survey: lowered, nominees, format: 'csv', write: (chunk) => void (out += chunk), now: new Date('2030-02-01T00:00:00Z') });
    const [header, , second] = out.split('\r\n');
    // The second ballot has two write-ins: two sets of columns, not the one the limit now allows.
    expect(header.split(',').filter((column) => column.startsWith('write-in #'))).toEqual([
      'write-in #1 name',
      'write-in #1 category',
      'write-in #1 nominee_id',
      'write-in #2 name',
      'write-in #2 category',
      'write-in #2 nominee_id',
    ]);
    expect(second).toContain(',chen wie,Medicine / Cardiology,,Hana Sato,Medicine / Dermatology,,');
  });

  test('JSON Lines: one object per ballot', async () => {
    const lines = (await exported('jsonl'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      ballot_id: ids[1],
      submitted_at: '2030-01-01T09:01:00.000Z',
      link: 'public',
      personal_secret: null,
      status: 'current',
      replaced_by: null,
      verified_email: null,
      answers: { 'name-first': 'Ada', 'name-last': 'Roe' },
      nominations: [{ category: 'Medicine', subcategory: 'Dermatology', slot: 1, nominee_id: 'd-1', nominee: 'Émile Roux' }],
      write_ins: [
        { name: 'chen wie', category: 'Medicine', subcategory: 'Cardiology', nominee_id: null },
        { name: 'Hana Sato', category: 'Medicine', subcategory: 'Dermatology', nominee_id: null },
      ],
      reservations: [{ field: 'faces', kind: 'faces', tile: 'cardiology', custom_text: null, status: 'lost', outcome: 'lost' }],
      files: [],
    });
  });
});

describe('write-ins', () => {
  test('grouped by normalised name and sub-category, with the closest nominees', async () => {
    const groups = await writeInGroups(db, survey.config, nominees);
    expect(groups.map((g) => [g.name, g.subcategory, g.count, g.spellings.length])).toEqual([
      ['Dr. Chen  Wie', 'Cardiology', 2, 2],
      ['Hana Sato', 'Dermatology', 1, 1],
    ]);
    expect(groups[0].candidates[0]).toMatchObject({ id: 'c-3', name: 'Chen Wei' });
  });

  test('a resolve naming an unknown nominee, category or write-in changes nothing', async () => {
    const attempts = [
      { name: 'Chen Wie', resolution: { action: 'merge' as const, nomineeId: 'zz-1' } },
      { name: 'Chen Wie', category: 'Medicine / Oncology', resolution: { action: 'merge' as const, nomineeId: 'c-3' } },
      { name: 'Nobody', resolution: { action: 'reject' as const } },
      { name: 'Chen Wie', resolution: { action: 'new' as const, nomineeId: 'c-1' } },
    ];
    for (const attempt of attempts)
      await expect(resolveWriteIn(db, survey.config, nominees, { ...attempt, by: { actor: 'tester' } })).rejects.toThrow(OperatorError);
    await expect(resolveWriteIn(db, survey.config, nominees, { ...attempts[0], by: { actor: 'tester' } })).rejects.toThrow(
      'Nominee id "zz-1" is not on the nominee list of peer-check, nor added by a write-in decision.',
    );
    expect(await writeInDecisionLog(db, 'peer-check')).toEqual([]);
  });

  test('decisions are kept with who and when; the latest is in force; a new nominee is appended to the file', async () => {
    await resolveWriteIn(db, survey.config, nominees, {
      name: 'chen wie',
      resolution: { action: 'reject' },
      by: { actor: 'ann' },
      now: new Date('2030-02-01T10:00:00Z'),
    });
    await resolveWriteIn(db, survey.config, nominees, {
      name: 'Chen Wie',
      resolution: { action: 'merge', nomineeId: 'c-3' },
      by: { actor: 'bob' },
      now: new Date('2030-02-01T11:00:00Z'),
    });
    const [added] = await resolveWriteIn(db, survey.config, nominees, {
      name: 'Dr. Hana Sato',
      category: 'Medicine / Dermatology',
      resolution: { action: 'new', practice: 'Skin Partners' },
      by: { actor: 'bob' },
      now: new Date('2030-02-01T12:00:00Z'),
    });
    expect(added).toMatchObject({ nominee_id: 'wi-hana-sato', nominee_name: 'Hana Sato', nominee_specialty: 'Dermatology', nominee_practice: 'Skin Partners' });
    const log = await writeInDecisionLog(db, 'peer-check');
    expect(log.map((d) => [d.name_key, d.action, d.decided_by])).toEqual([
      ['chen wie', 'reject', 'ann'],
      ['chen wie', 'merge', 'bob'],
      ['hana sato', 'new', 'bob'],
    ]);
    const inForce = await writeInDecisionsInForce(db, 'peer-check');
    expect([...inForce.values()].map((d) => d.action).sort()).toEqual(['merge', 'new']);
    expect((await exported('csv')).split('\r\n')[1]).toContain('Dr. Chen  Wie,Medicine / Cardiology,c-3');

    // Append to a copy of the survey folder, in the file's own columns.
    const dir = mkdtempSync(path.join(tmpdir(), 'peervote-append-'));
    try {
      cpSync(path.join(FIXTURE_SURVEYS, 'peer-check'), path.join(dir, 'peer-check'), { recursive: true });
      const copy = loadSurvey('peer-check', dir);
      const additions = nomineesToAppend(inForce.values(), loadNominees(copy));
      expect(additions).toEqual([{ id: 'wi-hana-sato', name: 'Hana Sato', specialty: 'Dermatology', practice: 'Skin Partners', city: undefined }]);
      appendNominees(copy, additions);
      expect(readFileSync(path.join(dir, 'peer-check/nominees.csv'), 'utf8').split('\n').slice(-2)).toEqual([
        'wi-hana-sato,Hana Sato,Dermatology,Skin Partners,',
        '',
      ]);
      expect(nomineesToAppend(inForce.values(), loadNominees(copy))).toEqual([]);
      // JSON Lines lists get a JSON line.
      writeFileSync(path.join(dir, 'peer-check/nominees.jsonl'), '{"id":"c-1","name":"Ana Ferreira"}');
      const jsonl = { ...copy, config: { ...copy.config, nominees: 'nominees.jsonl' } };
      appendNominees(jsonl, additions);
      expect(readFileSync(path.join(dir, 'peer-check/nominees.jsonl'), 'utf8')).toBe(
        '{"id":"c-1","name":"Ana Ferreira"}\n{"id":"wi-hana-sato","name":"Hana Sato","specialty":"Dermatology","practice":"Skin Partners"}\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the same decision again, or an undo with nothing to undo, records nothing; an undo makes the write-in wait again', async () => {
    const logged = async () => (await writeInDecisionLog(db, 'peer-check')).length;
    const before = await logged();
    const later = (minutes: number) => new Date(Date.parse('2030-02-02T00:00:00Z') + minutes * 60_000);
    const again = { name: 'CHEN WIE, MD', resolution: { action: 'merge' as const, nomineeId: 'c-3' }, by: { actor: 'cy' }, now: later(1) };
    await expect(resolveWriteIn(db, survey.config, nominees, again)).rejects.toThrow(
      /^"CHEN WIE, MD" is counted for c-3 already, decided by bob at 2030-02-01 11:00 UTC: nothing changed\.$/,
    );
    expect(await logged()).toBe(before);

    const [undone] = await resolveWriteIn(db, survey.config, nominees, {
      name: 'Chen Wie',
      resolution: { action: 'undo' },
      by: { actor: 'cy' },
      now: later(2),
    });
    expect(undone).toMatchObject({ action: 'undo', name_key: 'chen wie', nominee_id: null, decided_by: 'cy' });
    expect([...(await writeInDecisionsInForce(db, 'peer-check')).values()].map((d) => d.name_key)).toEqual(['hana sato']);
    expect((await writeInGroups(db, survey.config, nominees, 0)).find((group) => group.nameKey === 'chen wie')?.decision).toBeUndefined();
    expect((await exported('csv')).split('\r\n')[1]).toContain('Dr. Chen  Wie,Medicine / Cardiology,,');

    await expect(
      resolveWriteIn(db, survey.config, nominees, { name: 'chen wie', resolution: { action: 'undo' }, by: { actor: 'cy' }, now: later(3) }),
    ).rejects.toThrow(/^"chen wie" was undone already, by cy at 2030-02-02 00:02 UTC, and waits for a decision: nothing changed\.$/);
    expect(await logged()).toBe(before + 1);
    // Decided again, it counts again.
    await resolveWriteIn(db, survey.config, nominees, { ...again, now: later(4) });
    expect((await writeInDecisionsInForce(db, 'peer-check')).size).toBe(2);
  });
  test('a decision over one made since the write-in was seen waiting is refused; the command line may change one', async () => {
    const logged = async () => (await writeInDecisionLog(db, 'peer-check')).length;
    const before = await logged();
    const at = new Date('2030-02-03T00:00:00Z');
    const over = { name: 'Chen Wie', resolution: { action: 'merge' as const, nomineeId: 'c-1' }, by: { actor: 'dee' }, now: at };
    const refused = resolveWriteIn(db, survey.config, nominees, { ...over, seenWaiting: true });
    await expect(refused).rejects.toThrow(DecidedOtherwise);
    await expect(resolveWriteIn(db, survey.config, nominees, { ...over, seenWaiting: true })).rejects.toThrow(
      /^"Chen Wie" in Medicine \/ Cardiology was attached to c-3 meanwhile, by cy at 2030-02-02 00:04 UTC: Undo that decision first to make another\.$/,
    );
    expect(await logged()).toBe(before);
    const repeat = await resolveWriteIn(db, survey.config, nominees, { ...over, resolution: { action: 'merge', nomineeId: 'c-3' } }).catch((error) => error);
    expect(repeat).toBeInstanceOf(DecidedAlready);
    expect(repeat.recorded).toEqual({ by: 'cy', at: '2030-02-02T00:04:00.000Z' });
    await resolveWriteIn(db, survey.config, nominees, over);
    expect((await writeInDecisionsInForce(db, 'peer-check')).get('Medicine\u0000Cardiology\u0000chen wie')?.nominee_id).toBe('c-1');
  });
});

describe('reservations', () => {
  const now = new Date('2030-01-02T00:00:00Z');

  test('confirming a held tile puts its label in the confirmed list; releasing frees it', async () => {
    const confirmed = await confirmReservation(db, survey.config, { kind: 'faces', tile: 'Cardiology', by: 'ann', now });
    expect(confirmed).toEqual({ kind: 'faces', slug: 'cardiology', label: 'THE FACE OF Cardiology', ballotId: ids[0] });
    expect(await confirmedLabels(db, 'peer-check', 'faces')).toEqual(['THE FACE OF Cardiology']);
    expect((await exported('csv')).split('\r\n')[1]).toMatch(/,cardiology,reserved,confirmed,,,$/);

    const released = await releaseReservation(db, survey.config, { kind: 'faces', tile: 'cardiology', by: 'ann', now: new Date(now.getTime() + 60_000) });
    expect(released.ballotId).toBe(ids[0]);
    expect(await confirmedLabels(db, 'peer-check', 'faces')).toEqual([]);
    expect(await claimedTiles(db, 'peer-check', 'faces', now)).toEqual([]);
    expect((await exported('csv')).split('\r\n')[1]).toMatch(/,cardiology,reserved,released,,,$/);
  });

  test('an unknown tile or kind, or a tile no ballot holds, is refused', async () => {
    await expect(confirmReservation(db, survey.config, { kind: 'faces', tile: 'oncology', by: 'ann', now })).rejects.toThrow(
      'peer-check has no Faces tile "oncology"; the tiles are cardiology, dermatology.',
    );
    await expect(confirmReservation(db, survey.config, { kind: 'hats', tile: 'cardiology', by: 'ann', now })).rejects.toThrow(OperatorError);
    await expect(confirmReservation(db, survey.config, { kind: 'faces', tile: 'dermatology', by: 'ann', now })).rejects.toThrow(
      'No ballot holds the Faces tile "dermatology" now; nothing to confirm.',
    );
  });
});
