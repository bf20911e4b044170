import { wantsPage } from '../html-page.ts';
import type { SurveyConfig } from '../../survey/config/config.struct.ts';
import { IDEMPOTENCY_HEADER, categoryKey, parseSlotName, writeInIndices, writeInNames } from '../../survey/ballots/ballot-keys.ts';
import { fieldRow, optionAtPosition } from '../../survey/config/fields.ts';
import { allFields } from '../../survey/config/layout.ts';
import type { ServerSurvey } from '../surveys.ts';
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
 * Exported only so its unit test can check it directly; the product reaches it through adaptClassicForm.
 * @internal
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
