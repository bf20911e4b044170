// The results page's figures put in order for reading: plain functions the build runs.
import type { PublishedResults } from '../survey/published/published-results.ts';
import { intlLocale, m } from '../i18n/messages.ts';

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
  const date = new Intl.DateTimeFormat(intlLocale('en-GB'), { dateStyle: 'long', timeZone: 'UTC' }).format(time);
  const clock = new Intl.DateTimeFormat(intlLocale('en-GB'), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(time);
  return m.state_closing_time({ date, time: clock });
}

/** The page's words for each reason a vote is not counted, in its language. */
const REASON_LABELS: Record<string, () => string> = {
  demo_ballot: m.reason_demo_ballot,
  operator_excluded: m.reason_operator_excluded,
  duplicate_ballot: m.reason_duplicate_ballot,
  not_on_list: m.reason_not_on_list,
  repeat_on_ballot: m.reason_repeat_on_ballot,
  outside_subcategory: m.reason_outside_subcategory,
  outside_region: m.reason_outside_region,
  self_vote: m.reason_self_vote,
  same_practice: m.reason_same_practice,
  replaced_ballot: m.reason_replaced_ballot,
};

/** A reason for not counting a vote, in the page's words. */
export const reasonLabel = (reason: string): string => REASON_LABELS[reason]?.() ?? reason.replaceAll('_', ' ');
