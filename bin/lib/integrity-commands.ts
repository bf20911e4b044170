// The commands of `npm run results` that guard the count: fraud signals, operators' exclusions, the report.
import { writeFileSync } from 'node:fs';
import { countBallots } from '../../src/results/ballots/ballots.repository.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { countSignals, detectSignals, signalBallots } from '../../src/results/signals/signals.ts';
import { recordSignalRun } from '../../src/results/signals/signal-runs.repository.ts';
import { DEFAULT_THRESHOLDS, strength, type SignalCluster, type SignalThresholds } from '../../src/results/signals/signal-model.ts';
import { excludeBallot, includeBallot } from '../../src/results/tally/exclusions.ts';
import { ballotExclusions } from '../../src/results/tally/tally.repository.ts';
import { reportData } from '../../src/results/report/report-data.ts';
import { reportHtml } from '../../src/results/report/report-html.ts';
import { openOutput, progress } from './output.ts';
import { who, type Context } from './results-commands.ts';
import { quoted } from '../../src/survey/errors.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** The `signals` options that set a threshold: option name → key and whether it may be fractional. */
export const THRESHOLD_OPTIONS: Record<string, { key: keyof SignalThresholds; fraction?: boolean }> = {
  window: { key: 'windowMinutes', fraction: true },
  'human-per-minute': { key: 'humanPerMinute', fraction: true },
  'fast-seconds': { key: 'fastSeconds', fraction: true },
  'address-min': { key: 'addressMin' },
  'device-min': { key: 'deviceMin' },
  'nominee-min': { key: 'nomineeMin' },
  'nominee-ratio': { key: 'nomineeRatio', fraction: true },
  'similar-min': { key: 'similarMin' },
  'similar-ballots': { key: 'similarBallots' },
  'similar-lift': { key: 'similarLift', fraction: true },
  'bloc-min': { key: 'blocMin' },
  'bloc-size': { key: 'blocSize' },
  'bloc-lift': { key: 'blocLift', fraction: true },
};

/** The thresholds the options give, the defaults for the rest; a value that is no positive number is one line. */
function thresholdsOf(options: Context['options']): SignalThresholds {
  const thresholds = { ...DEFAULT_THRESHOLDS };
  for (const [option, { key, fraction }] of Object.entries(THRESHOLD_OPTIONS)) {
    const value = text(options[option]);
    if (value === undefined) continue;
    const ok = fraction ? /^\d+(\.\d+)?$/.test(value) && Number(value) > 0 : /^\d+$/.test(value) && Number(value) >= 2;
    if (!ok) throw new OperatorError(`--${option} must be ${fraction ? 'a positive number' : 'a whole number of at least 2'}, got ${quoted(value)}.`);
    thresholds[key] = Number(value);
  }
  return thresholds;
}

/** A look for signals: its clusters, and what `signals` records of it. */
interface Look {
  clusters: SignalCluster[];
  /** Ballots that came without the page's fill time. */
  untimed: number;
  at: Date;
  thresholds: SignalThresholds;
  /** The ballots stored when the look began, and those the detectors read. */
  stored: number;
  read: number;
}

/** Reads the ballots and finds the clusters, with progress on standard error. */
async function findClusters({ db, survey, nominees, prepopulation, options }: Context): Promise<Look> {
  const thresholds = thresholdsOf(options);
  const at = new Date();
  const total = await countBallots(db, survey.config.project_id);
  const shown = progress('signals', total, Boolean(options.quiet));
  const ballots = await signalBallots(db, { survey, nominees, prepopulation, onProgress: shown.update });
  shown.done(total);
  const names = new Map(nominees.map((n) => [n.id, n.name]));
  const clusters = detectSignals(ballots, thresholds, (id) => (names.has(id) ? `${names.get(id)} (${id})` : id));
  // A ballot posted without the page carries no fill time: counted here, never flagged for it alone.
  let untimed = 0;
  for (const seconds of ballots.fill) if (Number.isNaN(seconds)) untimed++;
  const read = ballots.size;
  // The clusters keep the ballots' ids; the other columns go before the clusters are written out.
  ballots.release();
  return { clusters, untimed, at, thresholds, stored: total, read };
}

/** Records a look for the console (src/results/signals/signal-runs.repository.ts): when, by whom, its thresholds by option name, and its counts. */
async function recordLook({ db, survey, options }: Context, look: Look): Promise<void> {
  await recordSignalRun(db, {
    projectId: survey.config.project_id,
    at: look.at,
    actor: who(options),
    via: 'command line',
    thresholds: Object.fromEntries(Object.entries(THRESHOLD_OPTIONS).map(([option, { key }]) => [option, look.thresholds[key]])),
    ballotsStored: look.stored,
    ballotsRead: look.read,
    counts: countSignals(look.clusters),
    clusters: look.clusters,
  });
}

/** The summary's line for ballots that came without the page's fill time. */
const untimedLine = (untimed: number) =>
  `${untimed} ballot${untimed === 1 ? '' : 's'} came without the page's fill time (posted by other means than the ballot page): not judged by fast_ballot.`;

/** `signals`: every cluster of ballots the evidence ties together, strongest first, as a table or CSV; the look is recorded for the console. */
export async function signalsCommand(context: Context): Promise<void> {
  const { db, survey, options } = context;
  const format = text(options.format) ?? 'table';
  if (format !== 'table' && format !== 'csv') throw new OperatorError(`--format must be table or csv, got ${quoted(format)}.`);
  const look = await findClusters(context);
  const { clusters, untimed } = look;
  // Recorded before it is written out: a look made is a look, wherever its output goes.
  await recordLook(context, look);
  const excluded = await ballotExclusions(db, survey.config.project_id);
  const excludedIn = (ids: readonly string[]) => ids.filter((id) => excluded.has(id)).length;
  const output = openOutput(text(options.out));
  // A cluster's ids are read afresh each time they are asked for: once a cluster here.
  if (format === 'csv') {
    await output.write(csvLine(['kind', 'strength', 'score', 'ballots', 'excluded', 'evidence', 'ballot_ids']));
    for (const c of clusters) {
      const ids = c.ballotIds;
      await output.write(csvLine([c.kind, strength(c.score), c.score.toFixed(2), ids.length, excludedIn(ids), c.evidence, ids.join(' ')]));
    }
  } else if (!clusters.length) {
    await output.write(`No signals in ${survey.slug}: no cluster reaches its threshold.\n`);
    if (untimed) await output.write(`${untimedLine(untimed)}\n`);
  } else {
    for (const c of clusters) {
      const ids = c.ballotIds;
      const already = excludedIn(ids);
      await output.write(`${strength(c.score).padEnd(7)}${c.score.toFixed(1).padStart(5)}  ${c.kind.padEnd(15)}${c.evidence}\n`);
      await output.write(
        `${' '.repeat(14)}${ids.length} ballot${ids.length === 1 ? '' : 's'}${already ? `, ${already} excluded already` : ''}: ${ids.join(' ')}\n`,
      );
    }
    await output.write(
      `\n${clusters.length} cluster${clusters.length === 1 ? '' : 's'}. Flags, not verdicts: exclude a ballot with npm run results -- exclude ${survey.slug} <ballot-id> --why "…", or on the console's signals page (/console/${survey.slug}/signals/)\n`,
    );
    if (untimed) await output.write(`${untimedLine(untimed)}\n`);
  }
  await output.close();
}

/** `exclude` and `include`: an operator takes a ballot out of the count or puts it back, with why, in the audit trail. */
export async function exclusionCommand(action: 'exclude' | 'include', { db, survey, options, rest }: Context): Promise<void> {
  const [ballotId] = rest;
  if (!ballotId) throw new OperatorError(`${action} needs a ballot id: ${action} ${survey.slug} <ballot-id> --why "…".`);
  const change = { projectId: survey.config.project_id, ballotId, why: text(options.why), by: who(options) };
  if (action === 'exclude') {
    const row = await excludeBallot(db, change);
    process.stdout.write(
      `Excluded ballot ${row.ballot_id} from the count (by ${row.excluded_by} at ${row.excluded_at}); the tally lists its votes under operator_excluded.\n`,
    );
  } else {
    await includeBallot(db, change);
    process.stdout.write(`Ballot ${ballotId} counts again; the tally judges it by the rules like any other.\n`);
  }
}

/** `report`: one self-contained HTML file of the results, for people to read and print. */
export async function reportCommand(context: Context): Promise<void> {
  const { db, survey, nominees, prepopulation, options } = context;
  const out = text(options.out);
  if (!out) throw new OperatorError('report needs --out FILE (an .html file): the report holds embargoed results and is never printed to the terminal.');
  const quiet = Boolean(options.quiet);
  const total = await countBallots(db, survey.config.project_id);
  const shown = progress('report: tally', total, quiet);
  let counted = 0;
  const data = await reportData(db, {
    survey,
    nominees,
    prepopulation,
    onProgress: (ballots) => shown.update((counted = ballots)),
    // The signals run before the tally, with their own progress.
    findClusters: async () => (await findClusters(context)).clusters,
    now: new Date(),
  });
  shown.done(counted);
  try {
    writeFileSync(out, reportHtml(data));
  } catch (error) {
    throw new OperatorError(`Cannot write ${out}: ${(error as Error).message}.`);
  }
  if (!quiet) process.stderr.write(`report: wrote ${out}\n`);
}
