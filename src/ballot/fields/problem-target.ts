import { parseOtherAnswerName, parseSlotName } from '../../survey/ballots/ballot-keys.ts';
import { slotId } from '../anchors.ts';

/** The id of the element a problem's link points to, where its form-data name alone tells it. */
export function problemTargetId(path: string): string {
  if (parseSlotName(path)) return slotId(path);
  const other = parseOtherAnswerName(path);
  if (other) return `field-${other}-other`;
  return `field-${path}`;
}

/** The control the voter answers `path` with: an input of its own, the first choice of a group, or the first input of its section. */
function controlFor(path: string): HTMLElement | null {
  const byId = document.getElementById(problemTargetId(path));
  const named = [...document.getElementsByName(path)].find((element) => (element as HTMLInputElement).type !== 'hidden') ?? null;
  const section = document.getElementById(`field-${path}-title`)?.closest('section') ?? null;
  const target = byId ?? named ?? section;
  if (!target || target.matches('input, select, textarea, button')) return target;
  return (
    target.querySelector<HTMLElement>('input:checked:not(:disabled)') ??
    target.querySelector<HTMLElement>('input:not(:disabled):not([type="hidden"]), select, textarea')
  );
}

/** Moves to the control of a problem: scrolls its question into view and focuses it (GOV.UK's error-summary links). */
export function focusProblem(path: string): boolean {
  const control = controlFor(path);
  if (!control) return false;
  const question = control.closest('fieldset, .field') ?? control;
  question.scrollIntoView({ block: 'start' });
  control.focus({ preventScroll: true });
  return true;
}
