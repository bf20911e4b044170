import { $nominations } from '../ballot/nominations/nominations.ts';
import { $reservations } from '../ballot/reservations/reservations.ts';
import { $submitted } from '../ballot/submit/submit-state.ts';
import { $writeIns } from '../ballot/writeins/writeins.ts';
import { parseSlotName } from '../survey/ballots/ballot-keys.ts';

/** The ballot's analytics events, by name, with their parameters. */
export type BallotEvent =
  | { name: 'nomination_picked'; params: { category: string } }
  | { name: 'write_in_added'; params: { write_ins: number } }
  | { name: 'reservation_selected'; params: { field: string; tile: string } }
  | { name: 'submit_succeeded'; params: Record<string, never> }
  | { name: 'submit_failed'; params: { outcome: string } };

/**
 * Turns what the voter does to the ballot's stores into analytics events: a nominee picked
 * from the suggestions, a write-in row added, a reservation tile selected, and how the
 * submission ended. No personal data goes with them. Returns a function that stops listening.
 */
export function listenBallotEvents(send: (event: BallotEvent) => void): () => void {
  const stops = [
    $nominations.listen((value, old) => {
      for (const [slot, id] of Object.entries(value)) {
        if (!id || old?.[slot] === id) continue;
        const parsed = parseSlotName(slot);
        send({ name: 'nomination_picked', params: { category: parsed ? `${parsed.group} / ${parsed.subcategory}` : slot } });
      }
    }),
    $writeIns.listen((rows, old) => {
      if (rows.length > (old?.length ?? 0)) send({ name: 'write_in_added', params: { write_ins: rows.length } });
    }),
    $reservations.listen((value, old) => {
      for (const [field, choice] of Object.entries(value)) {
        if (choice?.tile && old?.[field]?.tile !== choice.tile) send({ name: 'reservation_selected', params: { field, tile: choice.tile } });
      }
    }),
    $submitted.listen((outcome) => {
      if (!outcome) return;
      send(outcome.status === 'sent' ? { name: 'submit_succeeded', params: {} } : { name: 'submit_failed', params: { outcome: outcome.status } });
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
