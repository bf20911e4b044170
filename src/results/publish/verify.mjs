#!/usr/bin/env node
// Checks a published Peervote results folder on its own: Node.js 20 or newer, its standard
// library only, nothing to install. In the folder holding results.json and ledger.jsonl:
//
//   node verify.mjs                  recounts every sub-category from the ledger and compares
//   node verify.mjs --receipt CODE   also finds your own ballot's line by its receipt code
//
// It checks that every ledger line carries the hash of the line before it and that the last
// line's hash is the head results.json publishes; then recounts each nominee's counted votes
// and points, ranks them and marks the winners by the methodology results.json states, and
// compares every figure with results.json. It prints "verified: …" and exits 0, or names the
// first disagreement and exits 1.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

/** The letters of a receipt code: Crockford's base 32. */
const RECEIPT_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A receipt code as typed, in the form the ledger hashed: upper case, spaces and dashes aside,
 * O read as 0, I and L as 1; undefined when it cannot be a code. The same rule as the survey's
 * own receipt check (a test holds the two together).
 */
export function normalizeReceipt(typed) {
  const code = String(typed).toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== 12) return undefined;
  return [...code].every((letter) => RECEIPT_ALPHABET.includes(letter)) ? code : undefined;
}

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
const GENESIS = '0'.repeat(64);

/** A disagreement between the published files: its message names the file and the line or figure. */
export class Disagreement extends Error {}

const disagree = (message) => {
  throw new Disagreement(message);
};

/** A ledger line's vote checked for shape, so that a damaged line is named rather than miscounted. */
function checkVote(vote, at) {
  const ok =
    vote &&
    typeof vote.category === 'string' &&
    typeof vote.subcategory === 'string' &&
    typeof vote.nominee_id === 'string' &&
    (vote.slot === null || Number.isInteger(vote.slot)) &&
    Number.isInteger(vote.points) &&
    typeof vote.counted === 'boolean';
  if (!ok) disagree(`${at}: a vote lacks its category, sub-category, slot, nominee_id, points or counted`);
}

/** Which nominees win a sub-category under the methodology: the same rule the publication applied. */
function markWinners(rows, ballots, methodology) {
  const top = methodology.publish?.top;
  const ties = methodology.publish?.ties ?? 'include';
  const minVotes = methodology.min_votes ?? 0;
  const minShare = methodology.min_share ?? 0;
  if (top === undefined && minVotes === 0 && minShare === 0) return;
  const tiedAt = new Map();
  for (const row of rows) if (row.rank !== null) tiedAt.set(row.rank, (tiedAt.get(row.rank) ?? 0) + 1);
  for (const row of rows) {
    if (row.rank === null) continue;
    const tied = tiedAt.get(row.rank);
    const inTop = top === undefined || (ties === 'include' ? row.rank <= top : row.rank + tied - 1 <= top);
    const inBallots = row.counted * 100 >= minShare * ballots - 1e-9;
    row.winner = inTop && row.counted >= minVotes && inBallots;
  }
}

/**
 * Verifies the folder `dir`: the chain, the head, the totals and every sub-category's counts,
 * ranks and winners. Resolves to what it counted, or throws a Disagreement naming the first
 * difference. With `receipt`, also finds that code's line.
 */
export async function verifyFolder(dir, receipt) {
  const resultsFile = path.join(dir, 'results.json');
  const ledgerFile = path.join(dir, 'ledger.jsonl');
  for (const file of [resultsFile, ledgerFile]) if (!existsSync(file)) disagree(`${path.basename(file)}: not found in ${dir}`);
  let results;
  try {
    results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  } catch (error) {
    disagree(`results.json: not JSON (${error.message})`);
  }
  if (!results || !Array.isArray(results.subcategories) || !results.ballots || !results.methodology) {
    disagree('results.json: lacks its subcategories, ballots or methodology');
  }
  const receiptHash = receipt === undefined ? undefined : sha256(`${results.receipt_salt}${receipt}`);
  let found;
  const subs = new Map();
  const totals = { received: 0, counted: 0, replaced: 0, votesCounted: 0, votesNotCounted: 0 };
  let prev = GENESIS;
  let n = 0;
  const lines = createInterface({ input: createReadStream(ledgerFile, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const text of lines) {
    n++;
    const at = `ledger.jsonl line ${n}`;
    let line;
    try {
      line = JSON.parse(text);
    } catch {
      disagree(`${at}: not a line of JSON`);
    }
    if (!line || typeof line !== 'object') disagree(`${at}: not a ledger line`);
    if (line.n !== n) disagree(`${at}: numbered ${line.n}, expected ${n} (a line is missing, added or out of order)`);
    if (line.prev !== prev) {
      disagree(
        n === 1
          ? `${at}: does not start the chain (its prev should be ${GENESIS})`
          : `ledger.jsonl line ${n - 1}: changed since it was chained (line ${n} holds the hash of another line ${n - 1})`,
      );
    }
    if (line.status !== 'current' && line.status !== 'replaced') disagree(`${at}: status ${JSON.stringify(line.status)}, expected current or replaced`);
    if (!Array.isArray(line.votes)) disagree(`${at}: lacks its votes`);
    prev = sha256(text);
    totals.received++;
    if (line.status === 'replaced') totals.replaced++;
    let counted = 0;
    const named = new Set();
    for (const vote of line.votes) {
      checkVote(vote, at);
      if (line.status === 'replaced') {
        // A replaced ballot is on the record, and counts nowhere.
        if (vote.counted) disagree(`${at}: a replaced ballot's vote is marked counted`);
        continue;
      }
      const key = `${vote.category}\u0000${vote.subcategory}`;
      let sub = subs.get(key);
      if (!sub) subs.set(key, (sub = { rows: new Map(), ballots: 0 }));
      let row = sub.rows.get(vote.nominee_id);
      if (!row) sub.rows.set(vote.nominee_id, (row = { counted: 0, points: 0 }));
      if (vote.counted) {
        row.counted++;
        row.points += vote.points;
        counted++;
        named.add(sub);
      } else totals.votesNotCounted++;
    }
    for (const sub of named) sub.ballots++;
    if (counted) totals.counted++;
    totals.votesCounted += counted;
    if (receiptHash && line.receipt === receiptHash) found = { n, line };
  }
  if (prev !== results.head) disagree(`results.json head: published ${results.head}, ledger ${prev}`);

  const figure = (name, published, ledger) => {
    if (published !== ledger) disagree(`results.json ${name}: published ${published}, ledger ${ledger}`);
  };
  figure('ballots.received', results.ballots.received, totals.received);
  figure('ballots.counted', results.ballots.counted, totals.counted);
  figure('ballots.replaced', results.ballots.replaced, totals.replaced);
  figure('votes.counted', results.votes?.counted, totals.votesCounted);
  figure('votes.not_counted', results.votes?.not_counted, totals.votesNotCounted);
  const excluded = Object.values(results.exclusions ?? {}).reduce((sum, votes) => sum + votes, 0);
  figure('exclusions (all reasons)', excluded, totals.votesNotCounted);

  const seen = new Set();
  for (const published of results.subcategories) {
    const key = `${published.category}\u0000${published.subcategory}`;
    seen.add(key);
    const sub = subs.get(key) ?? { rows: new Map(), ballots: 0 };
    const names = new Map(published.nominees.map((nominee) => [nominee.nominee_id, nominee.name ?? '']));
    for (const id of sub.rows.keys()) {
      if (!names.has(id)) disagree(`results.json ${published.subcategory} ${id}: not published, ledger ${sub.rows.get(id).counted}`);
    }
    const rows = [...sub.rows].map(([id, row]) => ({ id, name: names.get(id), ...row, rank: null, winner: false }));
    rows.sort((a, b) => b.points - a.points || a.name.localeCompare(b.name, 'en') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    let rank = 0;
    rows.forEach((row, i) => {
      if (i === 0 || row.points !== rows[i - 1].points) rank = i + 1;
      row.rank = row.counted > 0 ? rank : null;
    });
    markWinners(rows, sub.ballots, results.methodology);
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const nominee of published.nominees) {
      const row = byId.get(nominee.nominee_id) ?? { counted: 0, points: 0, rank: null, winner: false };
      const name = `${published.subcategory} ${nominee.nominee_id}`;
      figure(name, nominee.counted, row.counted);
      figure(`${name} points`, nominee.points, row.points);
      figure(`${name} rank`, nominee.rank, row.rank);
      figure(`${name} winner`, nominee.winner, row.winner);
    }
  }
  for (const [key, sub] of subs) {
    if (!seen.has(key)) disagree(`results.json ${key.split('\u0000')[1]}: not published, the ledger has ${sub.rows.size} nominees in it`);
  }
  return { ballots: totals.received, votes: totals.votesCounted, head: prev, found };
}

/** What a receipt's line says, in words. */
function receiptWords(found) {
  if (!found) return 'No ballot with this receipt code is in the ledger.';
  const { n, line } = found;
  if (line.status === 'replaced') return `Line ${n}: this ballot was replaced by a newer ballot of yours; none of its votes is counted.`;
  const counted = line.votes.filter((vote) => vote.counted).length;
  const left = line.votes.filter((vote) => !vote.counted).map((vote) => `${vote.subcategory} ${vote.nominee_id} (${vote.not_counted})`);
  return `Line ${n}: ${counted} of ${line.votes.length} votes counted${left.length ? `; not counted: ${left.join(', ')}` : ''}.`;
}

async function main(argv) {
  const args = [...argv];
  let receipt;
  const at = args.indexOf('--receipt');
  if (at >= 0) {
    receipt = normalizeReceipt(args[at + 1] ?? '');
    if (!receipt) {
      process.stderr.write('--receipt needs a receipt code: 12 letters and digits, such as 7K3M-Q9TD-2XHB.\n');
      return 2;
    }
    args.splice(at, 2);
  }
  const dir = path.resolve(args[0] ?? '.');
  try {
    const verified = await verifyFolder(dir, receipt);
    process.stdout.write(`verified: ${verified.ballots} ballots, ${verified.votes} votes counted, totals match, head ${verified.head}\n`);
    if (receipt) process.stdout.write(`${receiptWords(verified.found)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof Disagreement)) throw error;
    process.stdout.write(`${error.message}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
