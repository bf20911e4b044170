import { problemLine } from '../../survey/ballots/ballot-answer.ts';
import { AFFIRM_NAME, fieldNameOf, parseSlotName, parseWriteInName } from '../../survey/ballots/ballot-keys.ts';
import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import { allFields } from '../../survey/config/layout.ts';
import { escapeHtml, plainPage } from '../html-page.ts';
import { json, refuse } from '../http.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { receiveBallot } from './ballot-intake.ts';
import { adaptClassicForm, isClassicPost } from './classic-form.ts';
import { outcomeStatus, type IntakeOutcome, type Refused, type TryLater } from './intake-outcome.ts';
import { m } from '../../i18n/messages.ts';
import { requestLanguage } from '../language.ts';
import { localizeSurvey, surveyPath } from '../../survey/config/translations.ts';
import { categoryLabel } from '../../survey/config/layout.ts';

// The edge of the ballot intake: what became of a ballot, said in HTTP, as JSON for the islands
// or as a redirect or a page for a form posted without JavaScript. Nothing inside the intake
// builds a Response.

/** The headers a ballot's reply carries, JSON or page alike. */
function outcomeHeaders(outcome: IntakeOutcome): Record<string, string> {
  if (outcome.kind === 'duplicate') return { 'Idempotent-Replayed': 'true' };
  if (outcome.kind === 'try_later' && outcome.retryAfter !== undefined) return { 'Retry-After': String(outcome.retryAfter) };
  // The rest of an oversized body is left unread, so the connection cannot carry another request.
  if (outcome.kind === 'refused' && outcome.code === 'body_too_large') return { Connection: 'close' };
  return {};
}

/**
 * The JSON reply to a ballot: 201 with its receipt, or the API's one error shape with every offending field (docs/api.md).
 * Exported only so its unit test and the ingest bench's bare server can check it directly; the product reaches it through the ballot endpoint's reply.
 * @internal
 */
export function jsonReply(outcome: IntakeOutcome): Response {
  const headers = outcomeHeaders(outcome);
  if (outcome.kind === 'stored' || outcome.kind === 'duplicate') return json(outcomeStatus(outcome), outcome.receipt, headers);
  return refuse(outcomeStatus(outcome), outcome.code, outcome.message, outcome.kind === 'refused' ? outcome.problems : [], headers);
}

/** Where a voter's browser goes after a stored ballot: the survey's thank-you page, on the site's origin. */
function thankYouAddress(slug: string, request: Request, survey: ServerSurvey | undefined): string {
  const origin = request.headers.get('origin');
  const base = origin && origin !== 'null' ? origin : new URL(request.url).origin;
  // In the language of the page that posted it, when the survey offers it.
  const lang = requestLanguage();
  const offered: readonly string[] = survey?.config.languages ?? [];
  const prefix = offered.includes(lang) && lang !== offered[0] ? `/${lang}` : '';
  return `${base}${prefix}/${encodeURIComponent(slug)}/thankyou`;
}

/** A problem's place in words the voter reads on the ballot: the field's label, a choice, a write-in; none for what is no part of the ballot. */
function placeOf(path: string, config: SurveyConfig | undefined): string | undefined {
  const slot = parseSlotName(path);
  if (slot) return m.page_choice({ category: categoryLabel(config ?? {}, slot.subcategory), n: slot.slot });
  const writeIn = parseWriteInName(path);
  if (writeIn) return m.page_write_in({ n: writeIn.index + 1 });
  if (path === AFFIRM_NAME) return m.affirm_legend();
  const field = config && allFields(config.layout).find((one) => one.name === fieldNameOf(path));
  return field && (field.label ?? field.name);
}

/** What each kind of refusal tells the voter, above the list of problems. */
function headline(outcome: Refused | TryLater): { title: string; text: string } {
  if (outcome.code === 'already_submitted') return { title: m.page_received_already(), text: outcome.message };
  if (outcome.code === 'expired') return { title: m.state_expired_title(), text: m.page_expired_text() };
  if (outcome.kind === 'try_later')
    return {
      title: m.page_try_later_title(),
      text: m.page_try_later_text(),
    };
  return {
    title: m.error_summary_title(),
    text: m.page_problem_text(),
  };
}

/**
 * The reply a form posted without JavaScript gets instead of JSON: 303 to the thank-you page
 * when the ballot was stored; otherwise a plain HTML page with the JSON reply's status and
 * headers, the survey's title (`survey`: the one the query names, if any), the problems in the
 * voter's words and the way back to the ballot (the browser keeps the answers).
 * Exported only so its unit test can check it directly; the product reaches it through the ballot endpoint's reply.
 * @internal
 */
export function pageReply(outcome: IntakeOutcome, request: Request, survey: ServerSurvey | undefined): Response {
  if (outcome.kind === 'stored' || outcome.kind === 'duplicate')
    return new Response(null, { status: 303, headers: { Location: thankYouAddress(outcome.slug, request, survey), 'Cache-Control': 'no-store' } });
  const { title, text } = headline(outcome);
  const lang = requestLanguage();
  const config = survey && localizeSurvey(survey.config, lang);
  const lines = (outcome.kind === 'refused' ? outcome.problems : [])
    .map((problem) => problemLine(problem, placeOf(problem.path, config)))
    .filter((line) => line !== undefined);
  const problems = lines.length ? `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : '';
  const back =
    survey && config
      ? `<p><a class="button" href="${escapeHtml(surveyPath({ slug: encodeURIComponent(survey.slug), languages: config.languages ?? [] }, lang))}">${escapeHtml(m.page_new_ballot())}</a></p>`
      : '';
  return plainPage({
    status: outcomeStatus(outcome),
    site: config?.survey_title ?? m.page_survey(),
    lang,
    title,
    text,
    html: problems + back,
    headers: outcomeHeaders(outcome),
  });
}

/**
 * Answers `POST /api/survey`: 201 with a receipt, or a 4xx naming every offending field (see
 * docs/api.md). A form posted without JavaScript gets 303 to the thank-you page, or an HTML
 * page of problems.
 */
export async function answerBallotPost(request: Request, clientAddress: string): Promise<Response> {
  if (!isClassicPost(request)) return jsonReply(await receiveBallot(request, clientAddress));
  const outcome = await receiveBallot(request, clientAddress, { adaptForm: adaptClassicForm });
  return pageReply(outcome, request, findSurvey(new URL(request.url).searchParams.get('project_id') ?? ''));
}
