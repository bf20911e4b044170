import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { LoadedSurvey } from '../../survey/config/loader.ts';
import { mailHistories } from './delivery.repository.ts';
import { deliveryOf, type Delivery } from './delivery-status.ts';
import { rosterRecipients } from './send.ts';

/** One invited person's line of `deliveries`. */
export interface DeliveryRow extends Delivery {
  email: string;
}

/**
 * Every invited person with an address, in the roster's order, with where their mail stands; then
 * one line for each person on file with no address (nothing can be sent to them).
 */
export async function deliveryRows(db: Kysely<Database>, survey: LoadedSurvey, prepopulation: Record<string, PersonValues>): Promise<DeliveryRow[]> {
  const histories = await mailHistories(db, survey.config.project_id);
  const { recipients, noAddress } = rosterRecipients(survey, prepopulation);
  const rows: DeliveryRow[] = recipients.map((recipient) => ({ email: recipient.address, ...deliveryOf(histories.get(recipient.key)) }));
  for (let n = 0; n < noAddress; n++) rows.push({ email: '', ...deliveryOf(undefined), detail: 'no address on the roster' });
  return rows;
}
