import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createSecretKey } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema.ts';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { ConfigError } from '../../../src/survey/errors.ts';
import { importPeople } from '../../../src/server/people/people-import.ts';
import { peopleOf, personByContact, personBySecret } from '../../../src/server/people/people.repository.ts';
import { readPersonMapYaml, writePersonMapYaml } from '../../../src/survey/people/person-map-yaml.ts';
import { FIXTURE_SURVEYS, scratchDatabase } from '../../support/results-db.ts';

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let db: Kysely<Database>;
let surveys: string;
const key = createSecretKey(Buffer.alloc(32, 7));

beforeAll(async () => {
  scratch = await scratchDatabase();
  db = scratch.db;
  surveys = mkdtempSync(path.join(tmpdir(), 'peervote-people-'));
  cpSync(FIXTURE_SURVEYS, surveys, { recursive: true });
});
afterAll(async () => {
  await scratch?.close();
  rmSync(surveys, { recursive: true, force: true });
});

/** 1,200 made-up people, secret → values: more than two pieces of the file. */
const people = Object.fromEntries(
  Array.from({ length: 1200 }, (_, n) => [`Kp7vR8wLq2-${String(n).padStart(6, '0')}`, { email: `Person${n}@Example.org`, 'medical-license': `MD-${n}` }]),
);
const file = () => path.join(surveys, 'peer-check', 'prepopulation.yaml');

describe('the prepopulation file read into the people table', () => {
  test('the file invite writes reads back as the same people, by both readers, values that need quotes included', () => {
    const odd = { 'k-1234567890ab': { email: 'a@example.org', 'name-last': 'Smith: the #1', 'name-first': 'true', 'medical-license': '0042' } };
    const text = writePersonMapYaml({ ...odd, ...people }, '# header')!;
    expect(parse(text)).toEqual({ ...odd, ...people });
    expect(readPersonMapYaml(text)).toEqual({ ...odd, ...people });
    // Quotes and backslashes are the yaml library's to read back.
    const quoted = { 'k-1234567890ab': { 'name-last': 'O\'Neil "Jr." \\ 2' } };
    expect(parse(writePersonMapYaml(quoted, '# header')!)).toEqual(quoted);
    expect(writePersonMapYaml({ s: { 'name-first': 'two\nlines' } }, '# h')).toBeUndefined();
  });

  test('a file of several pieces is read whole, in its order; read again only when its text changes', async () => {
    writeFileSync(file(), writePersonMapYaml(people, '# people')!);
    const survey = loadSurvey('peer-check', surveys);
    expect(await importPeople(db, survey, key)).toBe(true);
    expect(await importPeople(db, survey, key)).toBe(false);
    const all = await peopleOf(db, 'peer-check', key);
    expect(Object.keys(all)).toEqual(Object.keys(people));
    expect(await personBySecret(db, 'peer-check', 'Kp7vR8wLq2-001100')).toEqual(people['Kp7vR8wLq2-001100']);
    expect(await personBySecret(db, 'peer-check', 'Kp7vR8wLq2-999999')).toBeUndefined();
    expect(await personByContact(db, 'peer-check', { email: 'person7@example.org' }, key)).toEqual({
      secret: 'Kp7vR8wLq2-000007',
      person: people['Kp7vR8wLq2-000007'],
    });
    expect((await personByContact(db, 'peer-check', { licence: 'MD1199' }, key))?.secret).toBe('Kp7vR8wLq2-001199');
    await expect(peopleOf(db, 'peer-check', createSecretKey(Buffer.alloc(32, 8)))).rejects.toThrow('sealed under another key');
  });

  test('a secret twice, in two pieces, is refused with its line, and the people stay as they were', async () => {
    writeFileSync(file(), `${writePersonMapYaml(people, '# people')!}Kp7vR8wLq2-000001:\n  email: again@example.org\n`);
    const survey = loadSurvey('peer-check', surveys);
    const refused = await importPeople(db, survey, key).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).message).toMatch(/prepopulation\.yaml:3602:1 /);
    expect((refused as ConfigError).message).not.toContain('Kp7vR8wLq2-000001');
    expect(Object.keys(await peopleOf(db, 'peer-check', key))).toHaveLength(1200);
    // Neither the pieces written before the refusal nor the people replaced earlier are left behind.
    const rows = await db
      .selectFrom('people')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(1200);
    expect((await personBySecret(db, 'peer-check', 'Kp7vR8wLq2-000001'))?.email).toBe('Person1@Example.org');
  });
});
