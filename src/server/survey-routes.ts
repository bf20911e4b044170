import { database } from './db/database.ts';
import { json, refuse, unknownSurvey } from './http.ts';
import { findSurvey, personOfLink, surveyCount } from './surveys.ts';
import { participationStats, workplaceStats } from './stats/survey-answers.ts';
import { requestTime } from './request-hooks.ts';
import { rateLimited } from './rate-limit.ts';
import { DEMO_SECRET, isExpired } from '../survey/people/link.ts';
import { allFields } from '../survey/config/layout.ts';
import { noteLinkOpen } from './links/link-opens.repository.ts';
import { secretHash } from './tokens.ts';
import { startOutbox } from './mail/outbox.ts';
import { watchMailRuns } from './mail/mail-run-watch.ts';
import { lastBallotOf } from './links/last-ballot.repository.ts';
import { nomineeIndex } from './search/nominees.ts';
import { m } from '../i18n/messages.ts';

/** GET /api/survey/{stats|workplace-stats}/{projectId}. */
export async function statsReply(projectId: string | undefined, which: 'participation' | 'workplaces'): Promise<Response> {
  const survey = findSurvey(projectId ?? '');
  if (!survey) return unknownSurvey();
  return json(200, which === 'participation' ? await participationStats(survey) : await workplaceStats(survey));
}

/** GET /api/health: loads the surveys, opens and migrates the database, starts the mail outbox; 200 once ready. */
export async function healthReply(): Promise<Response> {
  const surveys = surveyCount();
  const { dialect } = await database();
  // bin/serve.mjs asks this at start: receipts a crash left queued go out now, without waiting for the next ballot.
  startOutbox();
  // Send runs started in the console that a stopped process left resume now, in one process.
  watchMailRuns();
  return json(200, { ok: true, database: dialect, surveys });
}

/**
 * GET /api/survey/link/{projectId}?secret=: the holder's prepopulated answers, after the
 * client's allowance of checks (so secrets cannot be guessed at speed); the secret is looked
 * looked up by its hash in the `people` table.
 */
export async function linkReply(projectId: string | undefined, secret: string, request: Request, connection: string | undefined): Promise<Response> {
  const now = requestTime(request);
  const limited = await rateLimited('link', request, connection, now);
  if (limited) return limited;
  const held = findSurvey(projectId ?? '');
  if (!held) return unknownSurvey();
  if (isExpired(held.config, now.getTime())) return refuse(410, 'expired', m.state_expired_title());
  const { survey, person } = await personOfLink(held, secret);
  if (!person && secret !== DEMO_SECRET) return refuse(404, 'invalid_link', m.state_invalid_text(), [{ path: 'secret', message: m.api_link_not_valid() }]);
  // Only the layout's fields: the roster keys (nominee id, address, roster columns) are for the operators alone.
  const fields = new Set(allFields(survey.config.layout).map((field) => field.name));
  const prepopulated = Object.fromEntries(Object.entries(person ?? {}).filter(([name]) => fields.has(name)));
  // Opening a link is noted (for `responses`) and never uses it up: mail scanners open links too.
  if (person) await recordLinkOpen(survey.config.project_id, secret, now);
  // A voter who may change their ballot reopens the form on their last one: the secret is theirs alone.
  if (person && survey.config.amend === 'until_close') {
    const { db } = await database();
    const last = await lastBallotOf(db, survey.config.project_id, secret);
    if (last) {
      const names = nomineeIndex(survey);
      const nominees = Object.fromEntries(Object.values(last.nominations).map((id) => [id, names.get(id)?.name ?? id]));
      return json(200, { prepopulated, last_ballot: { ...last, nominees } });
    }
  }
  return json(200, { prepopulated });
}

/**
 * Notes that a personal link was opened, keyed by a hash of its secret (the secret itself is
 * neither stored nor logged). A failure to note it never keeps the voter from their ballot.
 */
async function recordLinkOpen(projectId: string, secret: string, now = new Date()): Promise<void> {
  try {
    const { db } = await database();
    await noteLinkOpen(db, projectId, secretHash(secret), now);
  } catch (error) {
    console.error(`Could not record a link opening for ${projectId}: ${(error as Error).message}`);
  }
}
