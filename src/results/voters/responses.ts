import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { linkOpens } from '../../server/links/link-opens.repository.ts';
import { secretHash } from '../../server/tokens.ts';
import { votedSecrets } from './voters.repository.ts';
import { groupValue } from '../../survey/people/roster-groups.ts';

/** Where one invited person stands: voted, opened their link without voting, or never opened it. */
type ResponseStatus = 'responded' | 'opened' | 'not_opened';

/** One invited person and where they stand. */
export interface InvitedPerson {
  secret: string;
  person: PersonValues;
  status: ResponseStatus;
  firstOpenedAt?: string;
  lastOpenedAt?: string;
}

/** Counts of one group of invited people. */
export interface ResponseCounts {
  group: string;
  invited: number;
  responded: number;
  opened: number;
  notOpened: number;
}

/** Every invited person of a survey (its prepopulation) with where they stand, in the file's order. */
export async function invitedPeople(db: Kysely<Database>, projectId: string, prepopulation: Record<string, PersonValues>): Promise<InvitedPerson[]> {
  const voted = await votedSecrets(db, projectId);
  const opens = await linkOpens(db, projectId);
  return Object.entries(prepopulation).map(([secret, person]) => {
    const open = opens.get(secretHash(secret));
    const status: ResponseStatus = voted.has(secret) ? 'responded' : open ? 'opened' : 'not_opened';
    return { secret, person, status, firstOpenedAt: open?.first_opened_at, lastOpenedAt: open?.last_opened_at };
  });
}

/** The value of a person's column as a group's name, as the console groups it; "(blank)" when they have none. */
function groupOf(person: PersonValues, column: string): string {
  return groupValue(person, column) || '(blank)';
}

/** Counts per group (by `column`, sorted by name), after the overall line "(all)". */
export function responseCounts(people: readonly InvitedPerson[], column?: string): ResponseCounts[] {
  const empty = (group: string): ResponseCounts => ({ group, invited: 0, responded: 0, opened: 0, notOpened: 0 });
  const all = empty('(all)');
  const groups = new Map<string, ResponseCounts>();
  for (const one of people) {
    const targets = [all];
    if (column) {
      const name = groupOf(one.person, column);
      if (!groups.has(name)) groups.set(name, empty(name));
      targets.push(groups.get(name)!);
    }
    for (const counts of targets) {
      counts.invited++;
      if (one.status === 'responded') counts.responded++;
      else if (one.status === 'opened') counts.opened++;
      else counts.notOpened++;
    }
  }
  return [all, ...[...groups.values()].sort((a, b) => a.group.localeCompare(b.group))];
}
