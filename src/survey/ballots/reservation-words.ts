import type { ReservationKind } from './tiles.ts';
import { m } from '../../i18n/messages.ts';

/** What a reservation section says: its default title, its introduction, the custom field's label and placeholder, the heading of who came before. */
export interface ReservationWords {
  title: string;
  intro: string;
  custom: string;
  placeholder: string;
  past: string;
}

/** The words of each kind of reservation section (docs/spec.md, "Reservations"), in the page's language: Faces, and Experts with its five-day hold. */
export function reservationWords(kind: ReservationKind): ReservationWords {
  return kind === 'faces'
    ? { title: m.faces_title(), intro: m.faces_intro(), custom: m.faces_custom(), placeholder: m.faces_placeholder(), past: m.faces_past() }
    : { title: m.experts_title(), intro: m.experts_intro(), custom: m.experts_custom(), placeholder: m.experts_placeholder(), past: m.experts_past() };
}
