import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectionOf, postgresProgram } from '../../../src/results/backup/postgres-programs.ts';

// Which pg_dump and pg_restore a backup runs: the server's version wherever it is installed, and
// one line saying what to install when it is not. The programs here are scripts that print a version.

let root: string;
let onPath: string;
let versions: string;

/** A stand-in for one of PostgreSQL's programs that prints `version` as the real one does. */
function program(dir: string, name: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${name} (PostgreSQL) ${version} (Debian ${version}-1)"\n`);
  chmodSync(file, 0o755);
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'peervote-pg-programs-'));
  onPath = path.join(root, 'bin');
  versions = path.join(root, 'versions');
  for (const name of ['pg_dump', 'pg_restore']) {
    program(onPath, name, '14.9');
    program(path.join(versions, '15', 'bin'), name, '15.2');
    program(path.join(versions, '16', 'bin'), name, '16.1');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('postgresProgram', () => {
  const places = () => ({ path: onPath, versions });

  test("runs the server's own version, on the PATH or in Debian's folder of versions", () => {
    expect(postgresProgram('pg_dump', 15, places()).program).toMatchObject({ file: path.join(versions, '15', 'bin', 'pg_dump'), major: 15, version: '15.2' });
    expect(postgresProgram('pg_dump', 14, places()).program).toMatchObject({ file: path.join(onPath, 'pg_dump'), major: 14 });
  });

  test('without the same version, the newest newer one; without a server, the newest', () => {
    expect(postgresProgram('pg_dump', 13, places()).program.major).toBe(16);
    expect(postgresProgram('pg_restore', undefined, places()).program.major).toBe(16);
  });

  test('refuses a pg_dump older than the server, saying what to install; warns of an older pg_restore', () => {
    expect(() => postgresProgram('pg_dump', 17, places())).toThrow(
      /^pg_dump 16\.1 \(.*\) is older than the PostgreSQL 17 server, which it cannot dump: install .*apt-get install postgresql-client-17/,
    );
    const { program: restorer, warning } = postgresProgram('pg_restore', 17, places());
    expect(restorer.major).toBe(16);
    expect(warning).toMatch(/pg_restore 16\.1 .* is older than the PostgreSQL 17 server: install .*postgresql-client-17/);
  });

  test('none installed: one line that says what to install', () => {
    const nowhere = { path: path.join(root, 'empty'), versions: path.join(root, 'none') };
    expect(() => postgresProgram('pg_dump', 15, nowhere)).toThrow(/^pg_dump is not installed .*: install .*\(apt-get install postgresql-client-15; /);
  });
});

describe('connectionOf', () => {
  test('gives the address without its password, which goes in PGPASSWORD, out of sight of ps', () => {
    const { dbname, env } = connectionOf('postgres://votes:s%40cret%2Fpass@db.example:5433/peervote?sslmode=require');
    expect(dbname).toBe('--dbname=postgres://votes@db.example:5433/peervote?sslmode=require');
    expect(env.PGPASSWORD).toBe('s@cret/pass');
  });

  test('leaves PGPASSWORD as it was when the URL has no password (a .pgpass file, say)', () => {
    const { dbname, env } = connectionOf('postgres://votes@db.example/peervote');
    expect(dbname).toBe('--dbname=postgres://votes@db.example/peervote');
    expect(env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });
});
