import { atom } from 'nanostores';
import { isExpired, linkState, secretFromPath, type LinkState } from '../survey/people/link.ts';
import type { PersonValues } from '../survey/config/config.struct.ts';
import { apiUrl } from '../survey/api/api-replies.ts';
import { $answers, prefillAnswers } from './fields/answers.ts';
import { pickNominee } from './nominations/nominations.ts';

/** A personal link's last ballot, as the survey API gives it back to the link's holder (`amend: until_close`). */
interface LastBallot {
  answers: Record<string, string | string[]>;
  nominations: Record<string, string>;
  nominees: Record<string, string>;
}

/** Puts the holder's last ballot back in the form: its answers, and each slot's nominee with its name. */
function refillLastBallot(last: LastBallot): void {
  for (const [name, value] of Object.entries(last.answers)) $answers.setKey(name, value);
  for (const [slot, id] of Object.entries(last.nominations)) pickNominee(slot, id, last.nominees[id] ?? id);
}

/** What the page knows about the visitor's link: its state, the secret, and the holder's prepopulated answers. */
export interface LinkInfo {
  state: LinkState | 'unreachable';
  secret?: string;
  prefill: PersonValues;
}

/** The visitor's link, shared by the page's state blocks and the ballot islands. */
export const $link = atom<LinkInfo>({ state: 'checking', prefill: {} });

/** The part of the survey the link check needs. */
export interface LinkSurvey {
  slug: string;
  project_id: string;
  blank_surveys: boolean;
  expiration_date?: string;
}

/**
 * Decides the link's state in the browser, when the page is viewed: expiry by the
 * visitor's clock, then, on a personal link, the secret as the survey API knows it.
 */
export async function checkLink(survey: LinkSurvey, pathname: string, oldBrowser: boolean): Promise<void> {
  if (oldBrowser) return $link.set({ state: 'old-browser', prefill: {} });
  if (isExpired(survey)) return $link.set({ state: 'expired', prefill: {} });
  const secret = secretFromPath(pathname, survey.slug);
  if (!secret) return $link.set({ state: linkState(survey, undefined, () => false), prefill: {} });
  $link.set({ state: 'checking', secret, prefill: {} });
  try {
    const response = await fetch(apiUrl(`/api/survey/link/${encodeURIComponent(survey.project_id)}`, { secret }), {
      cache: 'no-store',
      credentials: 'omit',
    });
    if (response.status === 404) return $link.set({ state: 'invalid', secret, prefill: {} });
    if (response.status === 410) return $link.set({ state: 'expired', secret, prefill: {} });
    if (!response.ok) throw new Error(`link check answered ${response.status}`);
    const body = (await response.json()) as { prepopulated: PersonValues; last_ballot?: LastBallot };
    prefillAnswers(body.prepopulated);
    // Under `amend: until_close` the link reopens on its holder's last ballot.
    if (body.last_ballot) refillLastBallot(body.last_ballot);
    $link.set({ state: 'form', secret, prefill: body.prepopulated });
  } catch (error) {
    console.error(error);
    $link.set({ state: 'unreachable', secret, prefill: {} });
  }
}
