import type { MailRunView } from '../survey/operators/console-views.ts';

/** A stored time as the console shows it, its day and its time apart: `2027-03-01`, `09:30 UTC`; undefined for none. */
export function whenParts(iso: string | null | undefined): { day: string; time: string } | undefined {
  const at = iso ? new Date(iso) : undefined;
  if (!at || Number.isNaN(at.getTime())) return undefined;
  const text = at.toISOString();
  return { day: text.slice(0, 10), time: `${text.slice(11, 16)} UTC` };
}

/** A stored time as the console says it in a sentence: `2027-03-01 09:30 UTC`; empty for none. */
export function when(iso: string | null | undefined): string {
  const parts = whenParts(iso);
  return parts ? `${parts.day} ${parts.time}` : '';
}

/** Why the API refused a ballot, in words, by its error code (docs/api.md, "Refused ballots"). */
const REFUSAL_WORDS: Record<string, string> = {
  invalid_link: 'Invalid personal link',
  verification_required: 'No proof of address',
  expired: 'Sent after the close',
  invalid_ballot: 'Did not meet the rules',
  already_submitted: 'Voter had voted already',
  unknown_survey: 'Unknown survey',
  bad_query: 'Malformed address',
};

/** A refused ballot's reason in words; an unknown code as it is. */
export function refusalWords(code: string): string {
  return REFUSAL_WORDS[code] ?? code;
}

/** A span of time as a person says it: `less than a minute`, `7 minutes`, `3 hours`, `12 days`. */
export function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? '' : 's'}`;
  if (minutes < 1) return 'less than a minute';
  if (minutes < 120) return plural(minutes, 'minute');
  if (hours < 48) return plural(hours, 'hour');
  return plural(days, 'day');
}

/** A count with thousands separated: `12,345`. */
export function count(value: number): string {
  return value.toLocaleString('en');
}

/** A count and its noun, singular for one: `1 cluster`, `12,345 ballots`. */
export function counted(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

/** A kind of signal in words: `address_burst` → `Address burst`. */
export function kindWords(kind: string): string {
  const words = kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A role map in words: `owner of top-doctors-demo, auditor of every survey`. */
export function rolesInWords(roles: Readonly<Record<string, string>>): string {
  const words = Object.entries(roles).map(([slug, role]) => `${role} of ${slug === '*' ? 'every survey' : slug}`);
  return words.length ? words.join(', ') : 'no role yet';
}

/** How far a send run is, in one sentence: the mail page's status line, which its script says again as the run goes. */
export function runProgress(run: Pick<MailRunView, 'campaign' | 'state' | 'total' | 'sent' | 'failed' | 'left' | 'outcome'>): string {
  const what = run.campaign === 'invitation' ? 'invitations' : 'reminders';
  if (run.state === 'running')
    return run.total === null
      ? `Sending ${what}: choosing whom to mail…`
      : `Sending ${what}: ${count(run.sent)} sent, ${count(run.failed)} failed, ${count(run.left ?? 0)} left of ${count(run.total)}.`;
  return `${run.state === 'done' ? 'Sent' : 'Stopped'}: ${what}. ${run.outcome ?? ''}`.trim();
}
