import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import { ballotCategories } from '../../survey/config/layout.ts';
import { csvLine } from '../export/csv.ts';
import type { TallyConfig } from '../../survey/config/tally.struct.ts';
import { BASE_REASONS, DEFAULT_TALLY, EXCLUSION_REASONS, reasonText } from './rules.ts';
import type { Exclusion, Tally, TallyRow } from './tally.ts';
import { plural } from '../../survey/ballots/field-messages.ts';

/** Who wins a sub-category: the top N (ties at the edge included), or every nominee with at least a share of its counted votes. */
export type Threshold = { top: number } | { share: number };

/** Reads `--threshold`: a whole number ("3": the top three) or a percentage ("10%"). */
export function parseThreshold(text: string): Threshold | undefined {
  const top = /^\s*(\d+)\s*$/.exec(text);
  if (top && Number(top[1]) > 0) return { top: Number(top[1]) };
  const share = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (share && Number(share[1]) > 0 && Number(share[1]) <= 100) return { share: Number(share[1]) / 100 };
  return undefined;
}

/** A tally row placed in its sub-category: rank by points (1, 2, 2, 4), share of the sub-category's points, winner (published) or not. */
interface RankedRow extends TallyRow {
  points: number;
  rank: number | undefined;
  share: number;
  winner: boolean;
}

/** One sub-category's rows, best first, with its counted total. */
export interface SubcategoryResult {
  group: string;
  subcategory: string;
  counted: number;
  points: number;
  /** Counted ballots that name someone in the sub-category, counted. */
  ballots: number;
  excluded: number;
  rows: RankedRow[];
}

/** True when the methodology weighs slots differently, so that points are not votes. */
const weighted = (rules: Pick<TallyConfig, 'points'>) => rules.points.some((points) => points !== 1);

/**
 * Which rows win: every cut in force must pass. The top N (the `--threshold` number, else the
 * methodology's `publish.top`) with ties at the edge all in or all out; a share of the votes
 * (`--threshold P%`, which replaces the top N); `min_votes`; `min_share` of the ballots. No cut
 * at all marks no winner.
 */
function winners(rows: RankedRow[], ballots: number, rules: TallyConfig, threshold?: Threshold): void {
  const top = threshold ? ('top' in threshold ? threshold.top : undefined) : rules.publish.top;
  const share = threshold && 'share' in threshold ? threshold.share : undefined;
  if (top === undefined && share === undefined && rules.min_votes === 0 && rules.min_share === 0) return;
  const tiedAt = new Map<number, number>();
  for (const row of rows) if (row.rank !== undefined) tiedAt.set(row.rank, (tiedAt.get(row.rank) ?? 0) + 1);
  for (const row of rows) {
    if (row.rank === undefined) continue;
    const tied = tiedAt.get(row.rank)!;
    const inTop = top === undefined || (rules.publish.ties === 'include' ? row.rank <= top : row.rank + tied - 1 <= top);
    const inShare = share === undefined || row.share >= share - 1e-12;
    // Whole numbers compared, so that no float rounding decides a place: votes × 100 ≥ percent × ballots.
    const inBallots = row.counted * 100 >= rules.min_share * ballots - 1e-9;
    row.winner = inTop && inShare && row.counted >= rules.min_votes && inBallots;
  }
}

/**
 * The tally per sub-category, in the survey's order (sub-categories no longer in the survey
 * last), nominees by points (votes, unless the methodology weighs slots), then name, then id;
 * winners marked by the threshold given, else the methodology's `publish` and thresholds.
 */
export function rankTally(
  config: Pick<SurveyConfig, 'categories'> & Partial<Pick<SurveyConfig, 'tally'>>,
  tally: Tally,
  threshold?: Threshold,
): SubcategoryResult[] {
  const rules = tally.rules ?? config.tally ?? DEFAULT_TALLY;
  const order = ballotCategories(config).map(({ group, subcategory }) => `${group}\u0000${subcategory}`);
  const bySub = new Map<string, TallyRow[]>(order.map((key) => [key, []]));
  for (const row of tally.rows) {
    const key = `${row.group}\u0000${row.subcategory}`;
    if (!bySub.has(key)) bySub.set(key, []);
    bySub.get(key)!.push(row);
  }
  const known = new Set(order);
  const keys = [...order, ...[...bySub.keys()].filter((key) => !known.has(key)).sort()];
  return keys.map((key) => {
    const [group, subcategory] = key.split('\u0000');
    const pointsOf = (row: TallyRow) => row.points ?? row.counted;
    const rows = bySub
      .get(key)!
      .sort(
        (a, b) =>
          pointsOf(b) - pointsOf(a) || a.nomineeName.localeCompare(b.nomineeName, 'en') || (a.nomineeId < b.nomineeId ? -1 : a.nomineeId > b.nomineeId ? 1 : 0),
      );
    const counted = rows.reduce((sum, row) => sum + row.counted, 0);
    const points = rows.reduce((sum, row) => sum + pointsOf(row), 0);
    const excluded = rows.reduce((sum, row) => sum + EXCLUSION_REASONS.reduce((n, reason) => n + (row.excluded[reason] ?? 0), 0), 0);
    const ballots = tally.subcategoryBallots?.get(key) ?? 0;
    let rank = 0;
    const ranked = rows.map((row, i): RankedRow => {
      if (i === 0 || pointsOf(row) !== pointsOf(rows[i - 1])) rank = i + 1;
      return { ...row, points: pointsOf(row), rank: row.counted > 0 ? rank : undefined, share: points ? pointsOf(row) / points : 0, winner: false };
    });
    winners(ranked, ballots, rules, threshold);
    return { group, subcategory, counted, points, ballots, excluded, rows: ranked };
  });
}

/** The tally CSV's header under the default methodology. */
const TALLY_COLUMNS = [
  'category',
  'subcategory',
  'rank',
  'nominee_id',
  'nominee',
  'practice',
  'counted',
  'share',
  'winner',
  ...BASE_REASONS.map((reason) => `excluded_${reason}`),
];

/** What decides the CSV's columns besides the rows: the tally's methodology, reasons and flags (the default methodology's when not given). */
export type CsvShape = Pick<Tally, 'rules' | 'reasons' | 'flags'>;

/**
 * The tally as CSV: a header, then one line per nominee and sub-category. Under the default
 * methodology the columns are TALLY_COLUMNS; `points` follows `counted` when slots are weighed,
 * and a rule turned on adds its `excluded_…` (or `flagged_…`) column.
 */
export function tallyCsv(results: readonly SubcategoryResult[], shape: CsvShape = {}): string {
  const reasons = shape.reasons ?? BASE_REASONS;
  const flags = shape.flags ?? [];
  const points = weighted(shape.rules ?? DEFAULT_TALLY);
  let out = csvLine([
    ...TALLY_COLUMNS.slice(0, 7),
    ...(points ? ['points'] : []),
    'share',
    'winner',
    ...reasons.map((reason) => `excluded_${reason}`),
    ...flags.map((reason) => `flagged_${reason}`),
  ]);
  for (const sub of results) {
    for (const row of sub.rows) {
      out += csvLine([
        row.group,
        row.subcategory,
        row.rank ?? '',
        row.nomineeId,
        row.nomineeName,
        row.practice,
        row.counted,
        ...(points ? [row.points] : []),
        (row.share * 100).toFixed(1),
        row.winner ? 'yes' : '',
        ...reasons.map((reason) => row.excluded[reason] ?? 0),
        ...flags.map((reason) => row.flagged?.[reason] ?? 0),
      ]);
    }
  }
  return out;
}

/** The exclusions CSV's header. */
export const EXCLUSION_COLUMNS = ['ballot_id', 'submitted_at', 'category', 'subcategory', 'nominee_id', 'nominee', 'source', 'write_in', 'reason', 'detail'];

/** One excluded (or flagged) vote as a CSV line. */
export function exclusionCsvLine({ ballotId, submittedAt, verdict, nomineeName }: Exclusion): string {
  const { vote } = verdict;
  return csvLine([
    ballotId,
    submittedAt,
    vote.group,
    vote.subcategory,
    vote.nomineeId,
    nomineeName,
    vote.source,
    vote.writeIn ?? '',
    verdict.reason ?? verdict.flag,
    verdict.detail ?? '',
  ]);
}

function pad(text: string, width: number, right = false): string {
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return right ? cut.padStart(width) : cut.padEnd(width);
}

/** The terminal summary: per sub-category its top `top` nominees, then the totals and every kind of exclusion, explained. */
export function tallySummary(results: readonly SubcategoryResult[], tally: Tally, top: number): string {
  const lines: string[] = [];
  const { totals } = tally;
  for (const sub of results) {
    lines.push(
      `${sub.group} / ${sub.subcategory}: ${plural(sub.counted, 'vote')} counted${sub.excluded ? `, ${sub.excluded.toLocaleString('en')} excluded` : ''}`,
    );
    const shown = sub.rows.filter((row) => row.counted > 0).slice(0, top);
    if (!shown.length) lines.push('  (no counted votes)');
    else lines.push(`  ${pad('#', 4)}${pad('Nominee', 34)}${pad('Votes', 7, true)}${pad('Share', 8, true)}  Excluded`);
    for (const row of shown) {
      const excluded = EXCLUSION_REASONS.filter((reason) => row.excluded[reason])
        .map((reason) => `${row.excluded[reason]} ${reason.replaceAll('_', ' ')}`)
        .join(', ');
      lines.push(
        `  ${pad(String(row.rank), 4)}${pad(`${row.nomineeName} (${row.nomineeId})`, 34)}${pad(String(row.counted), 7, true)}${pad(`${(row.share * 100).toFixed(1)}%`, 8, true)}  ${excluded || '-'}${row.winner ? '  * winner' : ''}`,
      );
    }
    lines.push('');
  }
  lines.push(
    `Ballots: ${totals.ballots.toLocaleString('en')} read, ${totals.ballotsCounted.toLocaleString('en')} counted. Votes: ${totals.votesCounted.toLocaleString('en')} counted.`,
  );
  if (totals.ballotsReplaced) lines.push(`Replaced by a later ballot of the same voter, not counted: ${plural(totals.ballotsReplaced, 'ballot')}.`);
  const rules = tally.rules ?? DEFAULT_TALLY;
  for (const reason of EXCLUSION_REASONS) {
    const excluded = totals.excluded[reason];
    if (excluded) lines.push(`Excluded, ${reason.replaceAll('_', ' ')}: ${plural(excluded, 'vote')}: ${reasonText(reason, rules)}.`);
  }
  for (const reason of tally.flags ?? []) {
    const flagged = tally.rows.reduce((n, row) => n + (row.flagged?.[reason] ?? 0), 0);
    if (flagged) lines.push(`Flagged, ${reason.replaceAll('_', ' ')}: ${plural(flagged, 'vote')} counted and marked for review: ${reasonText(reason, rules)}.`);
  }
  if (totals.writeInsRejected) lines.push(`Write-ins rejected by an operator: ${totals.writeInsRejected.toLocaleString('en')}.`);
  if (totals.writeInsPending)
    lines.push(`Write-ins awaiting a decision, not counted yet: ${totals.writeInsPending.toLocaleString('en')} (see the writeins command).`);
  return `${lines.join('\n')}\n`;
}
