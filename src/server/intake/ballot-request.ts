import { DEMO_SECRET, isExpired, isLinkValid } from '../../survey/people/link.ts';
import { formatBytes } from '../../survey/ballots/file-rules.ts';
import type { BallotLink } from '../db/tables/ballots.table.ts';
import type { ServerConfig } from '../config.ts';
import { findSurvey, personOfLink, type ServerSurvey } from '../surveys.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import { readIdempotencyKey } from './idempotency.ts';
import { parseMultipart, readLimited } from './multipart.ts';
import { refused, type Refused } from './intake-outcome.ts';
import { m } from '../../i18n/messages.ts';

// What a ballot post carries, checked before the ballot itself: the survey and link its query
// names, and a body the API can read.

/** The survey a ballot is for and the kind of link it came by; the personal secret, for a personal link. */
export interface BallotTarget {
  survey: ServerSurvey;
  link: BallotLink;
  secret?: string;
  /** The invited person the personal secret names: their prepopulated values and roster address. */
  person?: PersonValues;
  /** The address the voter proved with a mailed code (src/server/verify/). */
  verifiedEmail?: string;
}

/** A ballot's body, read: its parts, cleaned, and the Idempotency-Key it was sent with, if any. */
export interface BallotBody {
  form: FormData;
  key: string | undefined;
}

/** The survey and link a ballot's query names, or the refusal of them (docs/spec.md, "Links": expiry). */
export async function checkLink(query: URLSearchParams, now: Date): Promise<BallotTarget | Refused> {
  const projectId = query.get('project_id') ?? '';
  const held = findSurvey(projectId);
  if (!held) return refused('unknown_survey', m.api_no_survey(), [{ path: 'project_id', message: 'names no survey.' }]);
  const secret = query.get('secret')?.trim() || undefined;
  // A secret the roster held does not name is looked for in the files again: a link `invite` has just written.
  const { survey, person } = secret ? await personOfLink(held, secret) : { survey: held, person: undefined };
  const projectType = query.get('project_type');
  if (projectType && projectType !== survey.config.project_type) {
    return refused('bad_query', `This survey is of project type "${survey.config.project_type}".`, [
      { path: 'project_type', message: `expected "${survey.config.project_type}".` },
    ]);
  }
  if (isExpired(survey.config, now.getTime())) return refused('expired', m.state_expired_title());
  if (!isLinkValid(survey.config, secret, () => person !== undefined)) {
    return refused('invalid_link', m.state_invalid_text(), [{ path: 'secret', message: secret ? m.api_link_not_valid() : m.api_link_required() }]);
  }
  const link: BallotLink = !secret ? 'public' : secret === DEMO_SECRET ? 'demo' : 'personal';
  return link === 'personal' ? { survey, link, secret, person } : { survey, link };
}

/** The refusal of a body past BODY_SIZE_LIMIT. */
function tooLarge(config: Pick<ServerConfig, 'bodySizeLimit'>): Refused {
  return refused('body_too_large', m.api_too_large({ size: formatBytes(config.bodySizeLimit) }));
}

/**
 * Reads a ballot's body: multipart/form-data, within the size limit (by Content-Length before
 * a byte is read), well-formed, with a valid Idempotency-Key if any and no NUL character; or
 * the refusal of it.
 */
export async function readBallot(request: Request, config: Pick<ServerConfig, 'bodySizeLimit'>): Promise<BallotBody | Refused> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return refused('unsupported_media_type', 'Send the ballot as multipart/form-data.');
  if (Number(request.headers.get('content-length') ?? 0) > config.bodySizeLimit) return tooLarge(config);
  const key = readIdempotencyKey(request);
  if (key === 'invalid')
    return refused('bad_idempotency_key', 'The Idempotency-Key header must be a quoted string of 1 to 255 visible characters.', [
      { path: 'Idempotency-Key', message: 'is not valid.' },
    ]);
  const body = await readLimited(request, config.bodySizeLimit);
  if (body === 'too-large') return tooLarge(config);
  const form = await parseMultipart(body, contentType);
  if (form === 'malformed') return refused('malformed_body', 'The body is not well-formed multipart/form-data.');
  if (Array.isArray(form)) return refused('invalid_text', m.api_nul(), form);
  return { form, key };
}
