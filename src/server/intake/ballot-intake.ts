import { uuidv7 } from '../ids.ts';
import { validateBallot } from '../../survey/ballot.struct.ts';
import { withReadOnlyValues } from '../../survey/read-only.ts';
import { ballotParts } from '../../survey/ballot-parts.ts';
import { DEMO_SECRET, isExpired, isLinkValid } from '../../survey/link.ts';
import { formatBytes } from '../../survey/file-rules.ts';
import { personOf } from '../../survey/secrets.ts';
import type { BallotLink } from '../db/ballots.table.ts';
import { serverConfig, type ServerConfig } from '../config.ts';
import { database } from '../db/instance.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { json, refuse } from '../http.ts';
import { rateLimited } from '../rate-limit.ts';
import { requestHashes } from './signals-salt.ts';
import { AlreadySubmittedError, storeBallot } from './ballots.repository.ts';
import { claimIdempotencyKey, findIdempotencyKey, releaseIdempotencyKey } from './idempotency.repository.ts';
import { answerForKnownKey, readIdempotencyKey } from './idempotency.ts';
import { fingerprint, parseMultipart, readLimited } from './multipart.ts';
import { fileFields, serverBallotStruct } from './ballot-structs.ts';
import { checkFileContents, removeFiles, storeFiles, type StoredFile } from './uploads.ts';
import { keepRefused } from './refusals.ts';
import { formDataToBallot, type BallotInput } from '../../survey/ballot-input.ts';
import { ballotCheckpoints, holdBallot, requestTime } from '../request-hooks.ts';

const INVALID_LINK = 'Sorry, this link is invalid! Please use your custom link to access your survey form.';

function tooLarge(config: ServerConfig): Response {
  const message = `The ballot is larger than ${formatBytes(config.bodySizeLimit)}, the most the survey API accepts.`;
  return refuse(413, 'body_too_large', message, [], { Connection: 'close' });
}

/** The survey and link a ballot's query names, or the answer that refuses them (docs/spec.md, "Links": expiry). */
function checkLink(query: URLSearchParams, now: Date): { survey: ServerSurvey; link: BallotLink; secret?: string } | Response {
  const projectId = query.get('project_id') ?? '';
  const survey = findSurvey(projectId);
  if (!survey) return refuse(404, 'unknown_survey', 'There is no survey with this project id.', [{ path: 'project_id', message: 'names no survey.' }]);
  const projectType = query.get('project_type');
  if (projectType && projectType !== survey.config.project_type) {
    return refuse(400, 'bad_query', `This survey is of project type "${survey.config.project_type}".`, [
      { path: 'project_type', message: `expected "${survey.config.project_type}".` },
    ]);
  }
  if (isExpired(survey.config, now.getTime())) return refuse(410, 'expired', 'Survey form has expired!');
  const secret = query.get('secret')?.trim() || undefined;
  if (!isLinkValid(survey.config, secret, (s) => personOf(survey.prepopulation, s) !== undefined)) {
    return refuse(403, 'invalid_link', INVALID_LINK, [
      { path: 'secret', message: secret ? 'is not a valid personal link.' : 'is required: this survey is by personal link only.' },
    ]);
  }
  const link: BallotLink = !secret ? 'public' : secret === DEMO_SECRET ? 'demo' : 'personal';
  return { survey, link, secret: link === 'personal' ? secret : undefined };
}

/**
 * Reads a ballot's body: multipart/form-data, within the size limit, well-formed, with a
 * valid Idempotency-Key if any and no NUL character; or the answer that refuses it.
 */
async function readBallot(
  request: Request,
  config: ServerConfig,
): Promise<{ parsed: { ballot: BallotInput; form: FormData }; key: string | undefined } | Response> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) return refuse(415, 'unsupported_media_type', 'Send the ballot as multipart/form-data.');
  if (Number(request.headers.get('content-length') ?? 0) > config.bodySizeLimit) return tooLarge(config);
  const key = readIdempotencyKey(request);
  if (key === 'invalid')
    return refuse(400, 'bad_idempotency_key', 'The Idempotency-Key header must be a quoted string of 1 to 255 visible characters.', [
      { path: 'Idempotency-Key', message: 'is not valid.' },
    ]);
  const body = await readLimited(request, config.bodySizeLimit);
  if (body === 'too-large') return tooLarge(config);
  const parsed = await parseMultipart(body, contentType);
  if (parsed === 'malformed') return refuse(400, 'malformed_body', 'The body is not well-formed multipart/form-data.');
  if (Array.isArray(parsed)) return refuse(400, 'invalid_text', 'Some answers hold a NUL character, which no text may hold.', parsed);
  return { parsed, key };
}

/**
 * Receives one ballot (`POST /api/survey`): rate limit, link and expiry, body size and shape,
 * idempotency, the ballot struct and the files' contents, then one transaction. 201 with a
 * receipt, or a 4xx naming every offending field. A well-formed ballot refused for a rule is
 * kept in `refused_ballots` for an operator to admit; it stores nothing in the ballots.
 * `adaptForm` turns a form posted without JavaScript into the parts the islands send.
 */
export async function receiveBallot(
  request: Request,
  connection: string | undefined,
  options: { adaptForm?: (form: FormData, survey: ServerSurvey) => FormData } = {},
): Promise<Response> {
  const config = serverConfig();
  const now = requestTime(request);
  const limited = await rateLimited('ballot', request, connection, now);
  if (limited) return limited;

  const query = new URL(request.url).searchParams;
  const target = checkLink(query, now);
  const read = await readBallot(request, config);
  // A well-formed ballot refused for its link is kept; a malformed request refused for its link is not.
  if (target instanceof Response) return read instanceof Response ? target : keepRefused(target, query, read.parsed.form, now);
  if (read instanceof Response) return read;
  const { survey, link, secret } = target;
  const { key } = read;
  let { parsed } = read;
  if (options.adaptForm) {
    const form = options.adaptForm(parsed.form, survey);
    parsed = { form, ballot: formDataToBallot(form) };
  }

  const { db } = await database();
  const print = key ? await fingerprint(query, parsed.form) : '';
  if (key) {
    const known = await findIdempotencyKey(db, key);
    const answer = known && answerForKnownKey(known, print, now);
    if (answer) return answer;
  }

  const ballot = withReadOnlyValues(survey.config.layout, personOf(survey.prepopulation, secret), parsed.ballot);
  const problems = validateBallot(serverBallotStruct(survey), ballot);
  const parts = ballotParts<File>(survey.config, ballot);
  const flagged = new Set(problems.map((problem) => problem.path));
  const files = await checkFileContents(
    parts.files.filter((part) => !flagged.has(part.field)),
    fileFields(survey),
  );
  problems.push(...files.problems);
  if (problems.length) return keepRefused(refuse(422, 'invalid_ballot', 'Some answers need another look.', problems), query, parsed.form, now);

  if (key) {
    const claim = await claimIdempotencyKey(db, { key, fingerprint: print, now, lockMs: config.idempotencyLockMs });
    if (claim !== 'claimed')
      return answerForKnownKey(claim, print, now) ?? refuse(409, 'request_in_progress', 'This ballot is still being received; try again in a moment.');
  }
  let stored: StoredFile[] = [];
  try {
    await holdBallot(request);
    stored = await storeFiles(config.uploadsDir, files.files);
    const receipt = await storeBallot(
      db,
      {
        id: uuidv7(now.getTime()),
        projectId: survey.config.project_id,
        link,
        personalSecret: secret ?? null,
        createdAt: now,
        parts,
        uploads: stored.map((file) => ({ id: file.id, field: file.field, original_name: file.originalName, content_type: file.contentType, size: file.size })),
        idempotencyKey: key,
        ...requestHashes(request, connection, config, survey.config.project_id),
      },
      ballotCheckpoints(request),
    );
    return json(201, receipt);
  } catch (error) {
    await removeFiles(config.uploadsDir, stored);
    if (key) await releaseIdempotencyKey(db, key).catch(() => {});
    if (error instanceof AlreadySubmittedError) {
      const refusal = refuse(409, 'already_submitted', 'A ballot has already been received for this personal link; the first one is kept.', [
        { path: 'secret', message: 'has already been used to vote.' },
      ]);
      return keepRefused(refusal, query, parsed.form, now);
    }
    throw error;
  }
}
