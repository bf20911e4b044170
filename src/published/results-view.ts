// The results page's figures put in order for reading: plain functions the build runs.
import type { PublishedResults } from '../survey/published/published-results.ts';

/** One sub-category as the page shows it: its rows with each bar's length, and the winners' names. */
export function subcategoryView(sub: PublishedResults['subcategories'][number]) {
  const top = Math.max(0, ...sub.nominees.map((nominee) => nominee.points));
  const rows = sub.nominees
    .filter((nominee) => nominee.counted > 0)
    .map((nominee) => ({ ...nominee, share: top ? Math.round((nominee.points / top) * 1000) / 10 : 0 }));
  return { rows, winners: rows.filter((row) => row.winner).map((row) => row.name || row.nominee_id) };
}

/** The methodology's sentences, from the Markdown list `results methodology` writes. */
export function methodologyItems(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).trim());
}

/** When the results were published, as people read it: "1 March 2027 at 12:00 UTC". */
export function publishedTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const date = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(time);
  const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(time);
  return `${date} at ${clock} UTC`;
}

/** The page's words for each reason a vote is not counted. */
const REASON_LABELS: Record<string, string> = {
  demo_ballot: 'Sent from the demonstration link',
  operator_excluded: 'Ballot taken out after a review',
  duplicate_ballot: 'Later ballot from someone who had voted',
  not_on_list: 'Nominee not on the list',
  repeat_on_ballot: 'Nominee named twice in a sub-category',
  outside_subcategory: 'Nominee outside the sub-category',
  outside_region: "Nominee outside the voter's region",
  self_vote: 'Vote for oneself',
  same_practice: "Vote for a colleague of one's own practice",
  replaced_ballot: 'Ballot replaced by a newer one',
};

/** A reason for not counting a vote, in the page's words. */
export const reasonLabel = (reason: string): string => REASON_LABELS[reason] ?? reason.replaceAll('_', ' ');
