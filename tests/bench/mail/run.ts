// Mail benchmark (a script, not a test).
//
// 1. Sends COUNT (20,000) invitations with `npm run results -- send <slug> invitations` to a local
//    SMTP server (smtp-sink.mjs, a process of its own), and the same number of messages of the same
//    size through a bare nodemailer pool with as many connections (bare-pool.ts), in the same run;
//    prints messages/s of each (whole processes timed, start included) and the ratio (goal >= 0.8).
// 2. Posts ballots from personal links to the built server for BENCH_SECONDS, with `mail.receipt:
//    true` (the receipts owed with each ballot and written by the outbox) and without, taking turns
//    at going first; prints ballots/s of each and the ratio (goal >= 0.9). Each measurement runs
//    --runs times; medians shown.
// Beside the wall clock, which a shared machine makes noisy: the processor time and peak memory of
// the send and of the bare pool (each process reports its own, cpu-report.mjs), and the server's
// processor time a ballot while the ballots are posted (read from /proc, on Linux).
//
//   npm run bench:mail -- [--count 20000] [--runs 3] [--seconds 10] [--part send|ingest]
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import { ROOT, startServer } from '../../support/server.mjs';
import { RESULTS_NODE_OPTIONS } from '../../support/results-cli.ts';
import { demoBallotFields, multipart } from '../../support/ballots.mjs';
import { loadSurvey } from '../../../src/survey/config/loader.ts';
import { campaignMessages, rosterRecipients } from '../../../src/results/delivery/send.ts';

const { values: args } = parseArgs({ options: { count: { type: 'string' }, runs: { type: 'string' }, seconds: { type: 'string' }, part: { type: 'string' } } });
const COUNT = Number(args.count ?? process.env.BENCH_COUNT ?? 20_000);
const RUNS = Math.max(1, Number(args.runs ?? 3));
const SECONDS = Number(args.seconds ?? process.env.BENCH_SECONDS ?? 10);
const SLUG = 'top-doctors-demo';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (kb: number) => `${Math.round(kb / 1024)} MiB`;
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

/** What a measured process used: processor time (user and system) and peak memory, as cpu-report.mjs writes them. */
interface Usage {
  cpuMs: number;
  maxRssKb: number;
}

let usages = 0;
/** The environment that makes a process write its Usage on exit, and how to read it afterwards. */
function usageReport(): { env: Record<string, string>; read(): Usage } {
  const file = path.join(work, `usage-${++usages}.json`);
  const env = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${path.join(ROOT, 'tests/bench/mail/cpu-report.mjs')}`.trim(), BENCH_CPU_FILE: file };
  return { env, read: () => JSON.parse(readFileSync(file, 'utf8')) as Usage };
}

/** Runs a process to its end: the wall-clock time from its start, and its Usage. */
function timed(command: string, argv: string[], env: Record<string, string>): Promise<{ ms: number } & Usage> {
  const usage = usageReport();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env, ...usage.env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) =>
      code === 0
        ? resolve({ ms: performance.now() - started, ...usage.read() })
        : reject(new Error(`${argv.join(' ')} failed (${code}): ${stderr.slice(-500)}`)),
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
  const [first] = rosterRecipients(survey, (await import('../../../src/survey/config/loader.ts')).loadPrepopulation(survey)).recipients;
  const sample = campaignMessages(survey, 'invitation', 'http://127.0.0.1:4321')(first, 'x'.repeat(43)).mail;
  const messageFile = path.join(work, 'message.json');
  writeFileSync(messageFile, JSON.stringify(sample));
  const sink = await startSink();
  const peervote: number[] = [];
  const bare: number[] = [];
  const peervoteCpu: number[] = [];
  const bareCpu: number[] = [];
  const peervoteRss: number[] = [];
  const bareRss: number[] = [];
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
      const sent = await timed(process.execPath, [...RESULTS_NODE_OPTIONS, 'bin/results.mjs', 'send', SLUG, 'invitations'], env);
      peervote.push((COUNT / sent.ms) * 1000);
      peervoteCpu.push(sent.cpuMs);
      peervoteRss.push(sent.maxRssKb);
      const pooled = await timed(process.execPath, ['tests/bench/mail/bare-pool.ts', String(sink.port), String(COUNT), messageFile], {});
      bare.push((COUNT / pooled.ms) * 1000);
      bareCpu.push(pooled.cpuMs);
      bareRss.push(pooled.maxRssKb);
      process.stderr.write(
        `run ${run}: send ${Math.round(peervote.at(-1)!)} messages/s (${seconds(sent.cpuMs)} CPU), bare pool ${Math.round(bare.at(-1)!)} messages/s (${seconds(pooled.cpuMs)} CPU)\n`,
      );
    }
  } finally {
    sink.stop();
  }
  const ratio = median(peervote) / median(bare);
  console.log(`send invitations: ${COUNT} messages, ${Math.round(median(peervote))} messages/s (median of ${RUNS})`);
  console.log(`bare nodemailer pool: ${Math.round(median(bare))} messages/s; ratio ${ratio.toFixed(2)} (goal >= 0.8) ${ratio >= 0.8 ? 'MET' : 'NOT MET'}`);
  console.log(
    `processor time (user + system), medians: send ${seconds(median(peervoteCpu))}, bare pool ${seconds(median(bareCpu))}; ratio ${(median(bareCpu) / median(peervoteCpu)).toFixed(2)}. Peak memory: send ${mib(median(peervoteRss))}, bare pool ${mib(median(bareRss))}`,
  );
}

const BODIES = Array.from({ length: 200 }, (_, n) => multipart(demoBallotFields(n)));

/** A running process's processor time so far (user and system, ms), from Linux's /proc; NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  try {
    // After the command's name in parentheses come the fields from the 3rd on: utime and stime are
    // the 14th and 15th, in clock ticks of 1/100 s.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Ballots/s of personal-link ballots posted with 16 clients for SECONDS, and the server's processor time a ballot meanwhile. */
async function ingest(dir: string, secrets: string[]): Promise<{ perSecond: number; cpuMsPerBallot: number }> {
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
  const cpuBefore = processCpuMs(server.child.pid);
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
  const cpuMs = processCpuMs(server.child.pid) - cpuBefore;
  agent.destroy();
  await server.stop();
  if (failures.size) process.stderr.write(`  refused: ${[...failures].map(([status, n]) => `${n}×${status}`).join(', ')}\n`);
  return { perSecond: stored / elapsed, cpuMsPerBallot: cpuMs / stored };
}

async function receipts(): Promise<void> {
  const people = RUNS * 10_000;
  const plain = surveysWith('plain', people, false);
  const mailed = surveysWith('receipts', people, true);
  const without: number[] = [];
  const withReceipts: number[] = [];
  const withoutCpu: number[] = [];
  const withCpu: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    // Taking turns at going first, so that a machine growing busier or quieter during a pair does not favour one side.
    const plainFirst = run % 2 === 1;
    const first = await ingest(plainFirst ? plain.dir : mailed.dir, (plainFirst ? plain : mailed).secrets.slice((run - 1) * 10_000));
    const second = await ingest(plainFirst ? mailed.dir : plain.dir, (plainFirst ? mailed : plain).secrets.slice((run - 1) * 10_000));
    const [plainRun, mailedRun] = plainFirst ? [first, second] : [second, first];
    without.push(plainRun.perSecond);
    withReceipts.push(mailedRun.perSecond);
    withoutCpu.push(plainRun.cpuMsPerBallot);
    withCpu.push(mailedRun.cpuMsPerBallot);
    process.stderr.write(
      `run ${run}: ingest ${Math.round(plainRun.perSecond)} ballots/s without receipts (${plainRun.cpuMsPerBallot.toFixed(2)} ms CPU a ballot), ${Math.round(mailedRun.perSecond)} with (${mailedRun.cpuMsPerBallot.toFixed(2)} ms, the receipts sent meanwhile included)\n`,
    );
  }
  const ratio = median(withReceipts) / median(without);
  console.log(`ingest without receipts: ${Math.round(median(without))} ballots/s (median of ${RUNS})`);
  console.log(
    `ingest with mail.receipt: true: ${Math.round(median(withReceipts))} ballots/s; ratio ${ratio.toFixed(2)} (goal >= 0.9) ${ratio >= 0.9 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `server processor time a ballot, medians: ${median(withoutCpu).toFixed(2)} ms without receipts, ${median(withCpu).toFixed(2)} ms with (the receipts rendered and sent meanwhile included)`,
  );
}

try {
  if (args.part !== 'ingest') await sending();
  if (args.part !== 'send') await receipts();
} finally {
  rmSync(work, { recursive: true, force: true });
}
