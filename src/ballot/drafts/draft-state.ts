import { atom } from 'nanostores';

/** What the draft line under the ballot says: whether answers are kept here, and when a ballot last left this device. */
export const $draft = atom<{ keeping: boolean; sentAt?: number }>({ keeping: false });

/** The localStorage prefixes of a survey's drafts and of its marks of ballots sent from this device. */
export const DRAFT_PREFIX = 'peervote:draft:';
export const SENT_PREFIX = 'peervote:sent:';

/** True when this device keeps a draft of the survey, or a mark of a ballot sent from it. */
export function keepsSomethingOf(slug: string): boolean {
  try {
    return Object.keys(localStorage).some((name) => name.startsWith(`${DRAFT_PREFIX}${slug}:`) || name.startsWith(`${SENT_PREFIX}${slug}:`));
  } catch {
    return false;
  }
}

/** True when this browser lets the page keep data (private modes and blocked storage may not). */
export function deviceStorage(): boolean {
  try {
    return typeof localStorage !== 'undefined';
  } catch {
    return false;
  }
}
