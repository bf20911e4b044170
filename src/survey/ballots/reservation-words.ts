import type { ReservationKind } from './tiles.ts';

/** What a reservation section says: its default title, its introduction, the custom field's label and placeholder, the heading of who came before. */
export interface ReservationWords {
  title: string;
  intro: string;
  custom: string;
  placeholder: string;
  past: string;
}

/** The words of each kind of reservation section (docs/spec.md, "Reservations"): Faces, and Experts with its five-day hold. */
export const RESERVATION_WORDS: Record<ReservationKind, ReservationWords> = {
  faces: {
    title: 'Reserve Your Faces Specialty',
    intro: 'Be THE FACE OF a specialty in our issue: choose one that is still free, or name your own.',
    custom: 'Or name your own specialty',
    placeholder: 'THE FACE OF...',
    past: 'Past participants',
  },
  asktheexpert: {
    title: 'Reserve Your Expert Question',
    intro: 'Answer a reader question as our expert: choose one that is still free, or write your own. A selection is reserved for you for five days.',
    custom: 'Or write your own expert question',
    placeholder: 'Your question...',
    past: 'Past experts',
  },
};
