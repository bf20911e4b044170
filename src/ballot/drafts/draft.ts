import type { BallotSurvey } from '../../survey/ballots/ballot.struct.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { expirationTime } from '../../survey/people/link.ts';
import { allFields } from '../../survey/config/layout.ts';
import { isReadOnly } from '../../survey/ballots/read-only.ts';
import { $answers, type Answer } from '../fields/answers.ts';
import { resetBallot } from '../ballot.ts';
import { $link } from '../link.ts';
import { $nominations, $nomineeNames } from '../nominations/nominations.ts';
import { $reservations, type Reservation } from '../reservations/reservations.ts';
import { $ballotSurvey } from '../validation.ts';
import { $draft, deviceStorage, DRAFT_PREFIX, SENT_PREFIX } from './draft-state.ts';
import { $writeIns, restoreWriteIns } from '../writeins/writeins.ts';

/**
 * The voter's unsent answers as this device keeps them (files are never kept).
 * Exported only so an end-to-end test (which plants a draft in the browser's storage) can check it directly; the product reaches it through the draft store.
 * @internal
 */
export interface Draft {
  savedAt: number;
  /** When the survey expires (ms), so a draft is deleted with it even if its page is never opened again. */
  expiresAt?: number;
  answers: Record<string, Answer>;
  nominations: Record<string, string>;
  names: Record<string, string>;
  writeIns: Array<{ name: string; category: string }>;
  reservations: Record<string, Reservation | undefined>;
}

const DRAFT = DRAFT_PREFIX;
const SENT = SENT_PREFIX;
/** How long after the last change a draft is written. */
const SAVE_DELAY_MS = 300;

/**
 * The storage name of a survey and link: the slug with `public`, or with a hash of the personal
 * secret, so the secret itself is never written into a key.
 * Exported only so its unit test can check it directly; the product reaches it through the draft store's start and end.
 * @internal
 */
export async function linkKey(slug: string, secret: string | undefined): Promise<string> {
  if (!secret) return `${slug}:public`;
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${slug}\n${secret}`)));
  return `${slug}:personal:${[...digest.slice(0, 12)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The names a draft never holds nor restores: read-only fields, whose values come from the survey API.
 * Exported only so its unit test can check it directly; the product reaches it through the draft store's start and end.
 * @internal
 */
export function readOnlyNames(survey: Pick<BallotSurvey, 'layout'>, prefill: PersonValues): Set<string> {
  return new Set(
    allFields(survey.layout)
      .filter((field) => isReadOnly(field, prefill))
      .map((field) => field.name),
  );
}

/**
 * The stores' state as a draft, without the read-only answers.
 * Exported only so its unit test can check it directly; the product reaches it through the draft store's start and end.
 * @internal
 */
export function takeDraft(skip: Set<string>, now: number, expiresAt?: number): Draft {
  const answers = Object.fromEntries(Object.entries($answers.get()).filter(([name]) => !skip.has(name)));
  const writeIns = $writeIns.get().map(({ name, category }) => ({ name, category }));
  return {
    savedAt: now,
    expiresAt,
    answers,
    nominations: { ...$nominations.get() },
    names: { ...$nomineeNames.get() },
    writeIns,
    reservations: { ...$reservations.get() },
  };
}

/**
 * Puts a draft back into the stores; read-only answers stay as the survey API gave them.
 * Exported only so its unit test can check it directly; the product reaches it through the draft store's start and end.
 * @internal
 */
export function applyDraft(draft: Draft, skip: Set<string>): void {
  for (const [name, value] of Object.entries(draft.answers ?? {})) if (!skip.has(name)) $answers.setKey(name, value);
  $nominations.set({ ...draft.nominations });
  $nomineeNames.set({ ...draft.names });
  restoreWriteIns(draft.writeIns ?? []);
  $reservations.set({ ...draft.reservations });
}

/** True when a draft holds nothing the voter would miss. */
function isEmpty(draft: Draft): boolean {
  return (
    Object.keys(draft.answers).length +
      Object.keys(draft.nominations).length +
      draft.writeIns.length +
      Object.values(draft.reservations).filter(Boolean).length ===
    0
  );
}

function read<T>(name: string): T | undefined {
  try {
    return JSON.parse(localStorage.getItem(name) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

function write(name: string, value: unknown): void {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // Storage full or refused (private mode): the ballot works on, without a draft.
  }
}

function remove(name: string): void {
  try {
    localStorage.removeItem(name);
  } catch {
    // Nothing kept, nothing to delete.
  }
}

/**
 * Deletes every draft of an expired survey, and every draft whose survey's expiry has passed.
 * Exported only so its unit test can check it directly; the product reaches it through the draft store's start and end.
 * @internal
 */
export function sweepDrafts(now: number, expiredSlug?: string): void {
  try {
    for (const name of Object.keys(localStorage)) {
      if (!name.startsWith(DRAFT)) continue;
      const expiresAt = read<Draft>(name)?.expiresAt;
      if ((expiredSlug && name.startsWith(`${DRAFT}${expiredSlug}:`)) || (typeof expiresAt === 'number' && expiresAt <= now)) remove(name);
    }
  } catch {
    // No storage: no drafts.
  }
}

let key: string | undefined;
let skip = new Set<string>();
let expiresAt: number | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let ended = false;
let startedDrafts = false;
/** The draft's key being worked out (the link's secret hashed), once the drafts have begun. */
let keyed: Promise<void> | undefined;

function save(): void {
  clearTimeout(timer);
  if (!key || ended) return;
  const draft = takeDraft(skip, Date.now(), expiresAt);
  if (isEmpty(draft)) remove(DRAFT + key);
  else write(DRAFT + key, draft);
}

function saveSoon(): void {
  clearTimeout(timer);
  if (key && !ended) timer = setTimeout(save, SAVE_DELAY_MS);
}

/**
 * Saves the draft now, once its key is known: the page is being left by a link of its own (the
 * language switch) and the answers must be there on the page it opens. Nothing to save before
 * the drafts have begun.
 */
export async function saveDraftNow(): Promise<void> {
  await keyed;
  save();
}

/**
 * Keeps the ballot's answers on this device while the voter fills it, and puts them back on the
 * next visit, per survey and link: once the link is known to open the form and the ballot's
 * layout is registered. An expired survey's drafts are deleted instead.
 */
export function startDrafts(survey: { slug: string; expiration_date?: string }): void {
  if (!deviceStorage() || startedDrafts) return;
  startedDrafts = true;
  const end = expirationTime(survey);
  expiresAt = Number.isFinite(end) ? end : undefined;
  sweepDrafts(Date.now());
  let started = false;
  const begin = async () => {
    const link = $link.get();
    if (link.state === 'expired') return sweepDrafts(Date.now(), survey.slug);
    const ballot = $ballotSurvey.get();
    if (started || link.state !== 'form' || !ballot) return;
    started = true;
    keyed = linkKey(survey.slug, link.secret).then((known) => {
      key = known;
    });
    await keyed;
    skip = readOnlyNames(ballot, link.prefill);
    const draft = read<Draft>(DRAFT + key);
    if (draft) applyDraft(draft, skip);
    $draft.set({ keeping: true, sentAt: read<number>(SENT + key) });
    for (const store of [$answers, $nominations, $nomineeNames, $writeIns, $reservations]) store.listen(saveSoon);
    // Started by the voter's first change: that change is kept too.
    saveSoon();
    // A closed tab or a pull-to-refresh must not lose the last keystrokes.
    addEventListener('pagehide', save);
  };
  $link.subscribe(() => void begin());
  $ballotSurvey.subscribe(() => void begin());
  // Back to a page kept whole by the browser after its ballot went: show a fresh form.
  addEventListener('pageshow', (event) => {
    if (event.persisted) freshAfterSubmit();
  });
}

/** Ends the draft when its ballot is in or on its way; `sent` notes the time, for the next visit's notice. */
export function endDraft(sent: boolean): void {
  clearTimeout(timer);
  ended = true;
  if (!key) return;
  remove(DRAFT + key);
  if (sent) write(SENT + key, Date.now());
}

/** After a ballot has gone, empties the form for another one (a personal link's prefilled answers put back) and keeps drafts again. */
export function freshAfterSubmit(): void {
  if (!ended) return;
  ended = false;
  const prefill = $link.get().prefill;
  resetBallot(prefill as Record<string, Answer>);
  $draft.set({ keeping: Boolean(key), sentAt: key ? read<number>(SENT + key) : undefined });
}

/** "Clear my answers": empties the ballot and deletes its draft from this device. */
export function clearMyAnswers(): void {
  clearTimeout(timer);
  if (key) remove(DRAFT + key);
  const prefill = $link.get().prefill;
  resetBallot(prefill as Record<string, Answer>);
}
