import { uuidv7 } from '../ids.ts';
import { database } from '../db/database.ts';
import { keepRefusedBallot } from './refused-ballots.repository.ts';
import { fingerprint } from './multipart.ts';
import { outcomeStatus, type Refused } from './intake-outcome.ts';

/**
 * Keeps a well-formed ballot refused for a rule in `refused_ballots` (text parts whole; files
 * by field, name, type and size), with the refusal's status, code and problems, so that no
 * ballot is lost; hands the refusal back unchanged. Malformed, oversized and rate-limited
 * requests never get here.
 */
export async function keepRefused(refusal: Refused, query: URLSearchParams, form: FormData, now: Date): Promise<Refused> {
  const fields: Array<[string, string]> = [];
  const files: Array<{ field: string; name: string; type: string; size: number }> = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields.push([name, value]);
    else files.push({ field: name, name: value.name, type: value.type, size: value.size });
  }
  const { db } = await database();
  await keepRefusedBallot(db, {
    id: uuidv7(now.getTime()),
    project_id: query.get('project_id') ?? '',
    received_at: now.toISOString(),
    status: outcomeStatus(refusal),
    reason: refusal.code,
    problems: JSON.stringify(refusal.problems),
    secret: query.get('secret')?.trim() || null,
    fields: JSON.stringify(fields),
    files: JSON.stringify(files),
    fingerprint: await fingerprint(query, form),
  });
  return refusal;
}
