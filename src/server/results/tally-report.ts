import type { SurveyConfig } from '../../survey/config.struct.ts';
import { categoryGroups } from '../../survey/layout.ts';
import { csvLine } from './csv.ts';
import { EXCLUSION_REASONS, REASON_TEXT } from './rules.ts';
import type { Exclusion, Tally, TallyRow } from './tally.ts';

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

/** A tally row placed in its sub-category: rank by counted votes (1, 2, 2, 4), share of the sub-category's votes, winner or not. */
export interface RankedRow extends TallyRow {
  rank: number | undefined;
  share: number;
  winner: boolean;
}

/** One sub-category's rows, best first, with its counted total. */
export interface SubcategoryResult {
  group: string;
  subcategory: string;
  counted: number;
  excluded: number;
  rows: RankedRow[];
}

/**
 * The tally per sub-category, in the survey's order (sub-categories no longer in the survey
 * last), nominees by counted votes, then name, then id; winners marked when a threshold is given.
 */
export function rankTally(config: Pick<SurveyConfig, 'categories'>, tally: Tally, threshold?: Threshold): SubcategoryResult[] {
  const order = categoryGroups(config).flatMap(({ name, subcategories }) => subcategories.map((sub) => `${name}\u0000${sub}`));
  const bySub = new Map<string, TallyRow[]>(order.map((key) => [key, []]));
  for (const row of tally.rows) {
    const key = `${row.group}\u0000${row.subcategory}`;
    if (!bySub.has(key)) bySub.set(key, []);
    bySub.get(key)!.push(row);
  }
  const keys = [...order, ...[...bySub.keys()].filter((key) => !order.includes(key)).sort()];
  return keys.map((key) => {
    const [group, subcategory] = key.split('\u0000');
    const rows = bySub.get(key)!.sort((a, b) => b.counted - a.counted || a.nomineeName.localeCompare(b.nomineeName, 'en') || (a.nomineeId < b.nomineeId ? -1 : 1));
    const counted = rows.reduce((sum, row) => sum + row.counted, 0);
    const excluded = rows.reduce((sum, row) => sum + EXCLUSION_REASONS.reduce((n, reason) => n + row.excluded[reason], 0), 0);
    let rank = 0;
    const ranked = rows.map((row, i): RankedRow => {
      if (i === 0 || row.counted !== rows[i - 1].counted) rank = i + 1;
      const share = counted ? row.counted / counted : 0;
      const winner = row.counted > 0 && threshold !== undefined && ('top' in threshold ? rank <= threshold.top : share >= threshold.share - 1e-12);
      return { ...row, rank: row.counted > 0 ? rank : undefined, share, winner };
    });
    return { group, subcategory, counted, excluded, rows: ranked };
  });
}

/** The tally CSV's header. */
export const TALLY_COLUMNS = ['category', 'subcategory', 'rank', 'nominee_id', 'nominee', 'practice', 'counted', 'share', 'winner', ...EXCLUSION_REASONS.map((reason) => `excluded_${reason}`)];

/** The tally as CSV: a header, then one line per nominee and sub-category. */
export function tallyCsv(results: readonly SubcategoryResult[]): string {
  let out = csvLine(TALLY_COLUMNS);
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
        (row.share * 100).toFixed(1),
        row.winner ? 'yes' : '',
        ...EXCLUSION_REASONS.map((reason) => row.excluded[reason]),
      ]);
    }
  }
  return out;
}

/** The exclusions CSV's header. */
export const EXCLUSION_COLUMNS = ['ballot_id', 'submitted_at', 'category', 'subcategory', 'nominee_id', 'nominee', 'source', 'write_in', 'reason', 'detail'];

/** One excluded vote as a CSV line. */
export function exclusionCsvLine({ ballotId, submittedAt, verdict, nomineeName }: Exclusion): string {
  const { vote } = verdict;
  return csvLine([ballotId, submittedAt, vote.group, vote.subcategory, vote.nomineeId, nomineeName, vote.source, vote.writeIn ?? '', verdict.reason, verdict.detail ?? '']);
}

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

function pad(text: string, width: number, right = false): string {
  const cut = text.length > width ? `${text.slice(0, width - 1)}…` : text;
  return right ? cut.padStart(width) : cut.padEnd(width);
}

/** The terminal summary: per sub-category its top `top` nominees, then the totals and every kind of exclusion, explained. */
export function tallySummary(results: readonly SubcategoryResult[], tally: Tally, top: number): string {
  const lines: string[] = [];
  const { totals } = tally;
  for (const sub of results) {
    lines.push(`${sub.group} / ${sub.subcategory}: ${plural(sub.counted, 'vote')} counted${sub.excluded ? `, ${sub.excluded.toLocaleString('en')} excluded` : ''}`);
    const shown = sub.rows.filter((row) => row.counted > 0).slice(0, top);
    if (!shown.length) lines.push('  (no counted votes)');
    else lines.push(`  ${pad('#', 4)}${pad('Nominee', 34)}${pad('Votes', 7, true)}${pad('Share', 8, true)}  Excluded`);
    for (const row of shown) {
      const excluded = EXCLUSION_REASONS.filter((reason) => row.excluded[reason]).map((reason) => `${row.excluded[reason]} ${reason.replaceAll('_', ' ')}`).join(', ');
      lines.push(`  ${pad(String(row.rank), 4)}${pad(`${row.nomineeName} (${row.nomineeId})`, 34)}${pad(String(row.counted), 7, true)}${pad(`${(row.share * 100).toFixed(1)}%`, 8, true)}  ${excluded || '-'}${row.winner ? '  * winner' : ''}`);
    }
    lines.push('');
  }
  lines.push(`Ballots: ${totals.ballots.toLocaleString('en')} read, ${totals.ballotsCounted.toLocaleString('en')} counted. Votes: ${totals.votesCounted.toLocaleString('en')} counted.`);
  for (const reason of EXCLUSION_REASONS) {
    if (totals.excluded[reason]) lines.push(`Excluded, ${reason.replaceAll('_', ' ')}: ${plural(totals.excluded[reason], 'vote')}: ${REASON_TEXT[reason]}.`);
  }
  if (totals.writeInsRejected) lines.push(`Write-ins rejected by an operator: ${totals.writeInsRejected.toLocaleString('en')}.`);
  if (totals.writeInsPending) lines.push(`Write-ins awaiting a decision, not counted yet: ${totals.writeInsPending.toLocaleString('en')} (see the writeins command).`);
  return `${lines.join('\n')}\n`;
}
