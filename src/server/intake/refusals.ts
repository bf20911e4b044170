import { uuidv7 } from '../ids.ts';
import { database } from '../db/instance.ts';
import { keepRefusedBallot } from './refused-ballots.repository.ts';
import { fingerprint } from './multipart.ts';
import type { ApiErrorBody } from '../../survey/api-replies.ts';

/**
 * Keeps a well-formed ballot that `answer` refuses for a rule in `refused_ballots` (text
 * parts whole; files by field, name, type and size), so that no ballot is lost, and hands the
 * answer back unchanged. Malformed, oversized and rate-limited requests never get here.
 */
export async function keepRefused(answer: Response, query: URLSearchParams, form: FormData, now: Date): Promise<Response> {
  const body = (await answer.clone().json()) as ApiErrorBody;
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
    status: answer.status,
    reason: body.error,
    problems: JSON.stringify(body.problems ?? []),
    secret: query.get('secret')?.trim() || null,
    fields: JSON.stringify(fields),
    files: JSON.stringify(files),
    fingerprint: await fingerprint(query, form),
  });
  return answer;
}
