// Mail benchmark (a script, not a test).
//
// 1. Sends COUNT (20,000) invitations with `npm run results -- send <slug> invitations` to a local
//    SMTP server (smtp-sink.mjs, a process of its own), and the same number of messages of the same
//    size through a bare nodemailer pool with as many connections (bare-pool.ts), in the same run;
//    prints messages/s of each (whole processes timed, start included) and the ratio (goal >= 0.8).
// 2. Posts ballots from personal links to the built server for BENCH_SECONDS, with `mail.receipt:
//    true` (the receipts queued with each ballot and written by the outbox) and without; prints
//    ballots/s of each and the ratio (goal >= 0.9). Each measurement runs --runs times; medians shown.
//
//   npm run bench:mail -- [--count 20000] [--runs 3] [--seconds 10] [--part send|ingest]
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import { appendFileSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import { ROOT, startServer } from '../../support/server.mjs';
import { demoBallotFields, multipart } from '../../support/ballots.mjs';
import { loadSurvey } from '../../../src/survey/loader.ts';
import { campaignMessages, rosterRecipients } from '../../../src/results/delivery/send.ts';

const { values: args } = parseArgs({ options: { count: { type: 'string' }, runs: { type: 'string' }, seconds: { type: 'string' }, part: { type: 'string' } } });
const COUNT = Number(args.count ?? process.env.BENCH_COUNT ?? 20_000);
const RUNS = Math.max(1, Number(args.runs ?? 3));
const SECONDS = Number(args.seconds ?? process.env.BENCH_SECONDS ?? 10);
const SLUG = 'top-doctors-demo';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const work = mkdtempSync(path.join(tmpdir(), 'peervote-bench-mail-'));

/** A copy of the surveys whose demo survey invites `people` people (secret → email, name), with or without receipts by mail. */
function surveysWith(name: string, people: number, receipt: boolean): { dir: string; secrets: string[] } {
  const dir = path.join(work, name);
  cpSync(path.join(ROOT, 'surveys'), dir, { recursive: true });
  const map: Record<string, Record<string, string>> = {};
  const secrets: string[] = [];
  for (let n = 0; n < people; n++) {
    const secret = randomBytes(12).toString('base64url');
    secrets.push(secret);
    map[secret] = { email: `person${n}@bench.example`, name: `Person ${n}` };
  }
  writeFileSync(path.join(dir, SLUG, 'prepopulation.yaml'), stringify(map));
  if (receipt) appendFileSync(path.join(dir, SLUG, 'survey.yaml'), '\nmail:\n  receipt: true\n');
  return { dir, secrets };
}

function timed(command: string, argv: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${argv.join(' ')} failed (${code}): ${stderr.slice(-500)}`)),
    );
  });
}

async function startSink(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['tests/bench/mail/smtp-sink.mjs'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.on('data', (chunk) => resolve(Number(/port (\d+)/.exec(String(chunk))?.[1]))));
  return { port, stop: () => child.kill('SIGTERM') };
}

async function sending(): Promise<void> {
  const { dir } = surveysWith('send', COUNT, false);
  const survey = loadSurvey(SLUG, dir);
  const [first] = rosterRecipients(survey, (await import('../../../src/survey/loader.ts')).loadPrepopulation(survey)).recipients;
  const sample = campaignMessages(survey, 'invitation', 'http://127.0.0.1:4321')(first, 'x'.repeat(43)).mail;
  const messageFile = path.join(work, 'message.json');
  writeFileSync(messageFile, JSON.stringify(sample));
  const sink = await startSink();
  const peervote: number[] = [];
  const bare: number[] = [];
  try {
    for (let run = 1; run <= RUNS; run++) {
      const dataDir = path.join(work, `data-${run}`);
      execFileSync('mkdir', ['-p', dataDir]);
      writeFileSync(path.join(dataDir, 'peervote.sqlite'), '');
      const env = {
        SURVEYS_DIR: dir,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
        MAIL_FROM: 'Bench <bench@bench.example>',
      };
      const ms = await timed(process.execPath, ['bin/results.ts', 'send', SLUG, 'invitations'], env);
      peervote.push((COUNT / ms) * 1000);
      const bareMs = await timed(process.execPath, ['tests/bench/mail/bare-pool.ts', String(sink.port), String(COUNT), messageFile], {});
      bare.push((COUNT / bareMs) * 1000);
      process.stderr.write(`run ${run}: send ${Math.round(peervote.at(-1)!)} messages/s, bare pool ${Math.round(bare.at(-1)!)} messages/s\n`);
    }
  } finally {
    sink.stop();
  }
  const ratio = median(peervote) / median(bare);
  console.log(`send invitations: ${COUNT} messages, ${Math.round(median(peervote))} messages/s (median of ${RUNS})`);
  console.log(`bare nodemailer pool: ${Math.round(median(bare))} messages/s; ratio ${ratio.toFixed(2)} (goal >= 0.8) ${ratio >= 0.8 ? 'MET' : 'NOT MET'}`);
}

const BODIES = Array.from({ length: 200 }, (_, n) => multipart(demoBallotFields(n)));

/** Ballots/s of personal-link ballots posted with 16 clients for SECONDS. */
async function ingest(dir: string, secrets: string[]): Promise<number> {
  const dataDir = mkdtempSync(path.join(work, 'ingest-'));
  const server = await startServer({
    env: { SURVEYS_DIR: dir, DATA_DIR: dataDir, DATABASE_URL: '', RATE_LIMIT_MAX: '0', LINK_RATE_LIMIT_MAX: '0' },
    timeoutMs: 120_000,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let next = 0;
  let stored = 0;
  const post = (secret: string, n: number) =>
    new Promise<number>((resolve) => {
      const { body, contentType } = BODIES[n % BODIES.length];
      const req = http.request(
        `${server.url}/api/survey?project_id=${SLUG}&project_type=form&secret=${encodeURIComponent(secret)}`,
        { method: 'POST', agent, headers: { Origin: server.url, 'Content-Type': contentType, 'Content-Length': body.length } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const failures = new Map<number, number>();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < end && next < secrets.length) {
        const n = next++;
        const status = await post(secrets[n], n);
        if (status === 201) stored++;
        else failures.set(status, (failures.get(status) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  await server.stop();
  if (failures.size) process.stderr.write(`  refused: ${[...failures].map(([status, n]) => `${n}×${status}`).join(', ')}\n`);
  return stored / elapsed;
}

async function receipts(): Promise<void> {
  const people = RUNS * 10_000;
  const plain = surveysWith('plain', people, false);
  const mailed = surveysWith('receipts', people, true);
  const without: number[] = [];
  const withReceipts: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    without.push(await ingest(plain.dir, plain.secrets.slice((run - 1) * 10_000)));
    withReceipts.push(await ingest(mailed.dir, mailed.secrets.slice((run - 1) * 10_000)));
    process.stderr.write(`run ${run}: ingest ${Math.round(without.at(-1)!)} ballots/s without receipts, ${Math.round(withReceipts.at(-1)!)} with\n`);
  }
  const ratio = median(withReceipts) / median(without);
  console.log(`ingest without receipts: ${Math.round(median(without))} ballots/s (median of ${RUNS})`);
  console.log(
    `ingest with mail.receipt: true: ${Math.round(median(withReceipts))} ballots/s; ratio ${ratio.toFixed(2)} (goal >= 0.9) ${ratio >= 0.9 ? 'MET' : 'NOT MET'}`,
  );
}

try {
  if (args.part !== 'ingest') await sending();
  if (args.part !== 'send') await receipts();
} finally {
  rmSync(work, { recursive: true, force: true });
}
