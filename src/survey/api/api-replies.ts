import type { BallotStanding } from '../published/published-results.ts';
import type { Problem } from '../errors.ts';
import { baseLocale, getLocale } from '../../i18n/messages.ts';

// The survey API's replies (its response bodies), shared by the server that writes them and the
// pages that read them; "answers" are the voter's, a reply is the API's.

/** What became of one reservation section of a ballot. */
export interface ReservationOutcome {
  field: string;
  /** The tile's slug, or the voter's own text for a custom reservation. */
  tile: string;
  status: 'reserved' | 'lost' | 'custom';
}

/** The 201 answer to `POST /api/survey`: the stored ballot's id, its receipt code and what its reservations got. */
export interface BallotReceipt {
  ballot_id: string;
  /** The voter's receipt code (see receipt-code.ts): proof the ballot went in, to check at `/{slug}/receipt`. */
  receipt: string;
  reservations: ReservationOutcome[];
  /** When the ballot this one replaced was sent (ISO 8601 UTC), under `amend: until_close`; absent when it replaced none. */
  replaced_sent_at?: string;
}

/** Every 4xx answer of the survey API: a code to branch on, a sentence for people, and each offending field. */
export interface ApiErrorBody {
  error: string;
  message: string;
  problems: Problem[];
}

/** The answer to the Faces and Experts look-ups (docs/spec.md, "Reservations"). */
export interface ReservationLookup {
  taken: string[];
  confirmed: string[];
}

/** The answer to `GET /api/survey/stats/{projectId}`: participation, demo ballots left out, never a nominee's count. */
export interface ParticipationFigures {
  project_id: string;
  ballots: number;
  /** Days with ballots (UTC, `YYYY-MM-DD`), in order. */
  ballots_per_day: Array<{ day: string; ballots: number }>;
  /** Sub-categories with nominations. */
  nominations_per_category: Array<{ group: string; subcategory: string; nominations: number }>;
  write_ins: number;
}

/** The answer to `GET /api/survey/workplace-stats/{projectId}`: ballots per workplace, most first, small ones and none as "Other" (last). */
export interface WorkplaceFigures {
  project_id: string;
  /** The layout field that names the workplace. */
  field: string;
  ballots: number;
  workplaces: Array<{ name: string; ballots: number }>;
}

/** The answer to `GET /api/survey/receipt/{projectId}/{code}`: whether and when a ballot with this receipt was received; nothing more. */
export interface ReceiptCheck {
  received: boolean;
  /** ISO 8601 UTC, when received. */
  received_at?: string;
  /** Once results are published: whether the ballot was counted, in part, not at all, or replaced by a newer one. */
  status?: BallotStanding;
  /** Once results are published: each vote not counted, and why, in words. */
  reasons?: string[];
  /** ISO 8601 UTC, when a later ballot of the same voter replaced it (`amend: until_close`); absent while it stands. */
  replaced_at?: string;
}

/**
 * The survey API's URL for a path: `PUBLIC_SURVEY_API_URL` when the API runs on another
 * origin, else the page's own origin.
 */
export function apiUrl(path: string, query: Record<string, string | undefined> = {}): string {
  const base = (import.meta.env.PUBLIC_SURVEY_API_URL as string | undefined)?.replace(/\/$/, '') ?? '';
  // A page in a further language asks the API to answer in it (`lang`, docs/api.md).
  const lang = getLocale();
  const all: Record<string, string | undefined> = { ...query, lang: lang === baseLocale ? undefined : lang };
  const params = new URLSearchParams(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const search = params.toString();
  return `${base}${path}${search ? `?${search}` : ''}`;
}
