import type { ReservationOutcome } from '../api/api-replies.ts';
import type { OutcomeField, ReservationKind } from './tiles.ts';

/** The words a tile reads: 'THE FACE OF {title}' for Faces (docs/spec.md, "Reservations"), the question itself for Experts. */
export function tileLabel(kind: ReservationKind, title: string): string {
  return kind === 'faces' ? `THE FACE OF ${title}` : title;
}

/** One line of the thank-you page about a reservation; `lost` ones are shown as a warning. */
export interface OutcomeLine {
  status: ReservationOutcome['status'];
  text: string;
}

/**
 * Words what became of one reservation, naming the tile by its title, never its slug:
 * reserved, lost to an earlier ballot (said plainly: the ballot itself still counts), or the
 * voter's own text received.
 */
export function outcomeLine(outcome: ReservationOutcome, fields: OutcomeField[]): OutcomeLine {
  const field = fields.find((candidate) => candidate.field === outcome.field);
  const kind = field?.kind ?? 'faces';
  const title = field?.titles[outcome.tile] ?? outcome.tile;
  const tile = kind === 'faces' ? tileLabel(kind, title) : `The expert question “${title}”`;
  if (outcome.status === 'custom') {
    const what = kind === 'faces' ? 'specialty' : 'expert question';
    return { status: 'custom', text: `Your own ${what}, “${outcome.tile}”, was received with your ballot.` };
  }
  if (outcome.status === 'lost') {
    return {
      status: 'lost',
      text: `${tile} was taken by another ballot that arrived before yours, so it could not be reserved for you. Your ballot was received and counts all the same.`,
    };
  }
  return { status: 'reserved', text: `${tile} is reserved for you${kind === 'asktheexpert' ? ' for five days' : ''}.` };
}
