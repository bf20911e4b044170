import type { ReservationOutcome } from '../api/api-replies.ts';
import type { OutcomeField, ReservationKind } from './tiles.ts';
import { m } from '../../i18n/messages.ts';

/** The words a tile reads: 'THE FACE OF {title}' for Faces (docs/spec.md, "Reservations"), the question itself for Experts. */
export function tileLabel(kind: ReservationKind, title: string): string {
  return kind === 'faces' ? `${m.faces_kicker()} ${title}` : title;
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
  const tile = kind === 'faces' ? tileLabel(kind, title) : m.reservation_expert_question({ title });
  if (outcome.status === 'custom') {
    const text = outcome.tile;
    return { status: 'custom', text: kind === 'faces' ? m.reservation_custom_faces({ text }) : m.reservation_custom_expert({ text }) };
  }
  if (outcome.status === 'lost') {
    return {
      status: 'lost',
      text: m.reservation_lost({ tile }),
    };
  }
  return { status: 'reserved', text: kind === 'asktheexpert' ? m.reservation_reserved_expert({ tile }) : m.reservation_reserved({ tile }) };
}
