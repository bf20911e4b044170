import type { ApiErrorBody } from '../../survey/api-replies.ts';
import { problemLine } from '../../survey/ballot-answer.ts';
import { escapeHtml, plainPage, wantsPage } from '../html-page.ts';
import type { SurveyConfig } from '../../survey/config.struct.ts';
import {
  AFFIRM_NAME,
  IDEMPOTENCY_HEADER,
  categoryKey,
  fieldNameOf,
  parseSlotName,
  parseWriteInName,
  writeInIndices,
  writeInNames,
} from '../../survey/ballot-keys.ts';
import { fieldRow, optionAtPosition } from '../../survey/fields.ts';
import { allFields } from '../../survey/layout.ts';
import { findSurvey, type ServerSurvey } from '../surveys.ts';
import { nomineeIndex } from '../search/nominees.ts';

/**
 * True for a ballot the browser's own form posted, its scripts off or failed: no
 * Idempotency-Key (the islands always send one), and a navigation that wants HTML.
 */
export function isClassicPost(request: Request): boolean {
  return !request.headers.has(IDEMPOTENCY_HEADER) && wantsPage(request);
}

/**
 * The form as the islands would have sent it. A nomination slot carries the text the voter
 * typed (and, if a script did pick a suggestion, the nominee id too): a nominee id of the list
 * stays, any other text becomes a write-in for the slot's sub-category, after the write-ins
 * the form carries. A slider's position (the range input's 1…n) becomes the option it stands for.
 */
export function classicFormAsBallot(form: FormData, config: Pick<SurveyConfig, 'layout'>, isKnownNominee: (id: string) => boolean): FormData {
  const sliders = new Map(
    allFields(config.layout)
      .filter((field) => fieldRow(field).positional)
      .map((field) => [field.name, field.options ?? []]),
  );
  const out = new FormData();
  let next = (writeInIndices(form.keys()).at(-1) ?? -1) + 1;
  const typed: Array<{ name: string; category: string }> = [];
  const slotsDone = new Set<string>();
  for (const [name, value] of form.entries()) {
    const slot = parseSlotName(name);
    const options = sliders.get(name);
    if (options && typeof value === 'string') {
      out.append(name, optionAtPosition(options, value));
    } else if (!slot) {
      out.append(name, value);
    } else if (!slotsDone.has(name)) {
      slotsDone.add(name);
      const texts = form
        .getAll(name)
        .map((one) => (typeof one === 'string' ? one.trim() : ''))
        .filter(Boolean);
      const id = texts.find(isKnownNominee);
      if (id) out.append(name, id);
      else if (texts[0]) typed.push({ name: texts[0], category: categoryKey(slot.group, slot.subcategory) });
    }
  }
  for (const { name, category } of typed) {
    const keys = writeInNames(next++);
    out.append(keys.name, name);
    out.append(keys.category, category);
  }
  return out;
}

/** A form posted without JavaScript, read as the islands' ballot against the survey's own nominee list. */
export function adaptClassicForm(form: FormData, survey: ServerSurvey): FormData {
  const nominees = survey.config.nominees ? nomineeIndex(survey) : undefined;
  return classicFormAsBallot(form, survey.config, (id) => nominees?.has(id) ?? false);
}

/** Where a voter's browser goes after a stored ballot: the survey's thank-you page, on the site's origin. */
function thankYouAddress(slug: string, request: Request): string {
  const origin = request.headers.get('origin');
  const base = origin && origin !== 'null' ? origin : new URL(request.url).origin;
  return `${base}/${encodeURIComponent(slug)}/thankyou`;
}

/** A problem's place in words the voter reads on the ballot: the field's label, a choice, a write-in; none for what is no part of the ballot. */
function placeOf(path: string, config: SurveyConfig | undefined): string | undefined {
  const slot = parseSlotName(path);
  if (slot) return `${slot.subcategory}, choice ${slot.slot}`;
  const writeIn = parseWriteInName(path);
  if (writeIn) return `Write-in ${writeIn.index + 1}`;
  if (path === AFFIRM_NAME) return 'Affirmation';
  const field = config && allFields(config.layout).find((one) => one.name === fieldNameOf(path));
  return field && (field.label ?? field.name);
}

/** What each kind of refusal tells the voter, above the list of problems. */
function headline(status: number, body: ApiErrorBody): { title: string; text: string } {
  if (body.error === 'already_submitted')
    return { title: 'This ballot has been received already', text: 'A ballot has already been received for this personal link; the first one is kept.' };
  if (body.error === 'expired') return { title: 'Survey form has expired!', text: 'Ballots are no longer taken. Your answers were kept for the organisers.' };
  if (status === 429 || status >= 500)
    return {
      title: 'Your ballot could not be sent just now',
      text: 'Please go back and press Submit again in a few minutes: your answers are still in the form.',
    };
  return {
    title: 'There is a problem',
    text: 'Your ballot was not stored. Go back to the ballot with your browser’s Back button: your answers are still there. Then correct these and submit again:',
  };
}

/**
 * The answer a form post gets instead of JSON: 303 to the thank-you page when the ballot was
 * stored; otherwise a plain HTML page with the same status, the survey's title, the problems
 * in the voter's words and the way back to the ballot (the browser keeps the answers).
 */
export async function classicAnswer(json: Response, request: Request): Promise<Response> {
  const projectId = new URL(request.url).searchParams.get('project_id') ?? '';
  const survey = findSurvey(projectId);
  if (json.status === 201 && survey)
    return new Response(null, { status: 303, headers: { Location: thankYouAddress(survey.slug, request), 'Cache-Control': 'no-store' } });
  const body = (await json.json()) as ApiErrorBody;
  const { title, text } = headline(json.status, body);
  const lines = (body.problems ?? []).map((problem) => problemLine(problem, placeOf(problem.path, survey?.config))).filter((line) => line !== undefined);
  const problems = lines.length ? `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>` : '';
  const back = survey ? `<p><a class="button" href="/${encodeURIComponent(survey.slug)}/">Open a new ballot</a></p>` : '';
  return plainPage({ status: json.status, site: survey?.config.survey_title ?? 'Survey', title, text, html: problems + back, headers: json.headers });
}
