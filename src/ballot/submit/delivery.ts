import { atom } from 'nanostores';
import type { BallotVerdict } from '../../survey/ballots/ballot-answer.ts';
import type { Problem } from '../../survey/errors.ts';

/**
 * A ballot's delivery: how the last submission of a survey ended, for its thank-you page: received (`sent`), kept on
 * the device to go later (`saved`), a ballot already in from this link (`already`), refused for
 * a rule (`refused`, with the API's reasons), or neither sent nor kept (`unsent`).
 */
export interface Delivery {
  status: 'sent' | 'saved' | 'already' | 'refused' | 'unsent';
  /** The ballot's idempotency key, to match a kept ballot's later answer. */
  key?: string;
  receipt?: unknown;
  refusal?: { message?: string; problems: Problem[] };
  /** For `already`: the verified address had voted, rather than the link. */
  byAddress?: boolean;
}

/** The sessionStorage key of a survey's last delivery (its name kept from before, so a session's record still reads). */
const deliveryKey = (slug: string) => `peervote:outcome:${slug}`;

/** The slug of the delivery recorded last on this page, so a thank-you view shown in place can follow it. */
export const $deliveryChanged = atom<string | undefined>();

/** The delivery a final verdict gives; undefined for a verdict that leaves the ballot waiting. */
export function deliveryOf(verdict: BallotVerdict, key?: string): Delivery | undefined {
  if (verdict.kind === 'stored') return { status: 'sent', key, receipt: verdict.receipt };
  if (verdict.kind === 'already-received') return verdict.byAddress ? { status: 'already', key, byAddress: true } : { status: 'already', key };
  if (verdict.kind === 'refused') return { status: 'refused', key, refusal: { message: verdict.message, problems: verdict.problems } };
  return undefined;
}

/** Records how a survey's submission ended; kept for the session, read by its thank-you page. */
export function recordDelivery(slug: string, delivery: Delivery): void {
  try {
    sessionStorage.setItem(deliveryKey(slug), JSON.stringify(delivery));
  } catch {
    // Private modes may refuse storage; the thank-you page then shows its plain thanks.
  }
  $deliveryChanged.set(undefined);
  $deliveryChanged.set(slug);
}

/** The last recorded delivery of a survey's ballot, if any can be read. */
export function readDelivery(slug: string): Delivery | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(deliveryKey(slug)) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

/** Records the final answer to a ballot that was kept on this device and went out later, for its thank-you page. */
export function recordLateVerdict(slug: string, key: string, verdict: BallotVerdict): void {
  const last = readDelivery(slug);
  const delivery = deliveryOf(verdict, key);
  if (delivery && last?.status === 'saved' && (last.key === undefined || last.key === key)) recordDelivery(slug, delivery);
}
