import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { startApi, type Api, type Fields } from './helpers.ts';
import { PEER_CHECK_BALLOTS, type HandBallot } from '../support/peer-check-ballots.ts';
import { runResults } from '../support/results-cli.ts';

// Sealed until the close, published, checked: the operator's commands on this API's database
// (SQLite or PostgreSQL), a receipt check after publication, and the published folder the same
// to the byte on both databases (tests/api/fixtures/published/peer-check/ is what both give).

const QUERY = { project_id: 'peer-check', project_type: 'form' };
const GOLDEN = path.resolve(import.meta.dirname, 'fixtures/published/peer-check');
const AT = '2030-02-01T12:00:00.000Z';
/** The receipt codes the ballots are given, so that the ledger's hashes are the same run after run. */
const CODES = [...PEER_CHECK_BALLOTS, null].map((_, i) => `7K3MQ9TD2X${String(i).padStart(2, '0')}`);
/** Carl's second ballot, by his personal email again: it replaces his first. */
const LATER: HandBallot = { at: '2030-01-01T10:00:00Z', answers: PEER_CHECK_BALLOTS[0].answers, votes: { Cardiology: ['c-3'] } };

let api: Api;
let surveys: string;
let ids: string[];
const yaml = () => path.join(surveys, 'peer-check', 'survey.yaml');
const folder = () => path.join(surveys, 'peer-check', 'results');

/** Runs `npm run results -- …args` on this API's database and surveys; never throws. */
function results(args: string[]) {
  return runResults(args, { SURVEYS_DIR: surveys, DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl });
}

/** Sets survey.yaml's close and seal, on top of the fixture's own file with `publish.top: 2`. */
function configure(expiration: string, sealed: boolean): void {
  const base = readFileSync(path.resolve(import.meta.dirname, 'fixtures/surveys/peer-check/survey.yaml'), 'utf8');
  writeFileSync(
    yaml(),
    `${base.replace('expiration_date: "2099-12-31"', `expiration_date: "${expiration}"`)}\ntally:\n  publish: { top: 2 }\nresults:\n  sealed: ${sealed}\n`,
  );
}

function fields(ballot: HandBallot): Fields {
  const form: Fields = Object.entries(ballot.answers ?? {});
  for (const [subcategory, nominees] of Object.entries(ballot.votes ?? {}))
    nominees.forEach((id, i) => form.push([`nominations[Medicine][${subcategory}][${i + 1}]`, id]));
  (ballot.writeIns ?? []).forEach(([name, subcategory], i) =>
    form.push([`writeins[${i}][name]`, name], [`writeins[${i}][category]`, `Medicine / ${subcategory}`]),
  );
  form.push(['affirm', 'on']);
  return form;
}

beforeAll(async () => {
  surveys = mkdtempSync(path.join(tmpdir(), 'peervote-published-'));
  cpSync(inject('surveysDir'), surveys, { recursive: true });
  configure('2099-12-31', true);
  api = await startApi({ SURVEYS_DIR: surveys });
  ids = [];
  for (const ballot of [...PEER_CHECK_BALLOTS, LATER]) {
    const secret = ballot.link === 'demo' ? 'demo' : ballot.secret;
    const answer = await api.post(fields(ballot), { query: { ...QUERY, ...(secret ? { secret } : {}) }, headers: { 'X-Peervote-Now': ballot.at } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    ids.push(answer.body.ballot_id);
  }
  const db = api.db();
  for (const [i, id] of ids.entries()) await db.updateTable('ballots').set({ receipt: CODES[i] }).where('id', '=', id).execute();
  await db.updateTable('ballots').set({ replaced_by: ids[9], replaced_at: LATER.at }).where('id', '=', ids[0]).execute();
});
afterAll(async () => {
  await api?.stop();
  if (surveys) rmSync(surveys, { recursive: true, force: true });
});

describe('sealed until the close', () => {
  test.each(['tally', 'export', 'report', 'publish'])('%s refuses before the close, naming it', async (command) => {
    const { code, stderr, stdout } = await results([command, 'peer-check', ...(command === 'report' ? ['--out', path.join(surveys, 'r.html')] : [])]);
    expect(stdout).toBe('');
    expect(stderr).toContain(command === 'publish' ? 'is still open, until its close, 2099-12-31' : 'peer-check is sealed until its close, 2099-12-31');
    expect(code).not.toBe(0);
  });

  test('responses, signals, refused and audit stay open', async () => {
    for (const command of ['responses', 'signals', 'refused', 'audit']) expect((await results([command, 'peer-check'])).code, command).toBe(0);
  });

  test('--unseal needs --why; with it, one run opens and the audit trail records it first', async () => {
    const bare = await results(['tally', 'peer-check', '--unseal']);
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain('say why with --why');
    const opened = await results(['tally', 'peer-check', '--unseal', '--why', 'interim count for the board', '--by', 'editor', '--quiet']);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toContain('category,subcategory,rank');
    const trail = (await results(['audit', 'peer-check'])).stdout;
    expect(trail).toMatch(/,editor,unseal,tally,interim count for the board,/);
    // The seal shuts again for the next run.
    expect((await results(['tally', 'peer-check'])).code).not.toBe(0);
  });

  test('publish before the close: --force alone is refused; --force --why publishes, audited', async () => {
    configure('2099-12-31', false);
    const bare = await results(['publish', 'peer-check', '--force']);
    expect(bare.code).not.toBe(0);
    expect(bare.stderr).toContain('say why with --why');
    const forced = await results(['publish', 'peer-check', '--force', '--why', 'embargoed preview for the editors', '--quiet']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((await results(['audit', 'peer-check'])).stdout).toMatch(/,unseal,publish,embargoed preview for the editors,/);
  });

  test('after the close, the sealed commands run', async () => {
    configure('2020-01-01', true);
    expect((await results(['tally', 'peer-check', '--quiet'])).code).toBe(0);
  });
});

describe('publish', () => {
  test('the same folder to the byte on SQLite and PostgreSQL: the fixture both give', async () => {
    // No operator decision recorded after this one: the folder names it, and it must be the same on both.
    await api.db().deleteFrom('audit_log').execute();
    const { code, stdout, stderr } = await results(['publish', 'peer-check', '--at', AT]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(`Published peer-check to ${folder()}: 10 ballots`);
    expect(readdirSync(folder()).sort()).toEqual(['ledger.jsonl', 'methodology.md', 'results.json', 'verify.mjs']);
    for (const file of readdirSync(GOLDEN)) expect(readFileSync(path.join(folder(), file), 'utf8'), file).toBe(readFileSync(path.join(GOLDEN, file), 'utf8'));
    // The checker is copied as it is.
    expect(readFileSync(path.join(folder(), 'verify.mjs'), 'utf8')).toBe(
      readFileSync(path.resolve(import.meta.dirname, '../../src/results/publish/verify.mjs'), 'utf8'),
    );
  });

  test('verify.mjs passes on it, run as a reader runs it', () => {
    const out = execFileSync(process.execPath, ['verify.mjs'], { cwd: folder(), encoding: 'utf8' });
    expect(out).toMatch(/^verified: 10 ballots, \d+ votes counted, totals match, head [0-9a-f]{64}\n$/);
  });

  test('the receipt check adds whether the ballot was counted, and why a vote was not', async () => {
    const counted = await api.get(`/api/survey/receipt/peer-check/${CODES[4]}`);
    expect(counted.body).toMatchObject({ received: true, status: 'counted', reasons: [] });
    const partly = await api.get(`/api/survey/receipt/peer-check/${CODES[2].toLowerCase()}`);
    expect(partly.body).toMatchObject({ received: true, status: 'partly_counted' });
    expect(partly.body.reasons).toEqual([
      'Cardiology, Ana Ferreira: a rule of the published methodology leaves this vote out (see "How the votes are counted")',
    ]);
    const replaced = await api.get(`/api/survey/receipt/peer-check/${CODES[0]}`);
    expect(replaced.body).toMatchObject({ received: true, status: 'replaced' });
    const unknown = await api.get('/api/survey/receipt/peer-check/ZZZZZZZZZZZZ');
    expect(unknown.body).toEqual({ received: false });
    const page = await api.get(`/api/survey/receipt/peer-check?code=${CODES[5]}`, { Accept: 'text/html' });
    expect(page.body).toContain('none of its votes is in the published results');
  });
});

describe('results verify', () => {
  test('agrees with the database line by line, then names a ballot excluded since publication', async () => {
    const agreed = await results(['verify', 'peer-check', '--quiet']);
    expect(agreed.stdout).toContain('agrees with the database: 10 ballots, line by line');
    expect(agreed.code).toBe(0);
    const excluded = await results(['exclude', 'peer-check', ids[4], '--why', 'a review found a bought vote']);
    expect(excluded.code, excluded.stderr).toBe(0);
    const changed = await results(['verify', 'peer-check', '--quiet']);
    expect(changed.stderr).toContain('ledger.jsonl line 5: excluded: 3 of its votes are no longer counted');
    expect(changed.code).not.toBe(0);
  });
});
