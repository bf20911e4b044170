import type { Problem } from '../errors.ts';

/** The NUL character: PostgreSQL cannot store it in text, so no answer, file name or query may hold it. */
const NUL = '\u0000';

/** C0 controls and DEL other than tab, newline and carriage return: invisible debris of copy and paste. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these controls is this pattern's whole point.
const STRAY_CONTROLS = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** The words a voter reads for a text that holds a NUL character. */
const NUL_MESSAGE = 'contains a NUL character (U+0000), which no text may hold; retype it or paste it again.';

/** True when the text holds a NUL character, which the API refuses wherever it comes (docs/api.md, "Text"). */
function hasNul(text: string): boolean {
  return text.includes(NUL);
}

/** The text without the C0 control characters (and DEL) that are not tab, newline or carriage return. */
export function stripStrayControls(text: string): string {
  return text.replace(STRAY_CONTROLS, '');
}

/** A problem for every named text that holds a NUL character. */
export function nulProblems(texts: Iterable<readonly [path: string, text: string]>): Problem[] {
  const problems: Problem[] = [];
  for (const [path, text] of texts) if (hasNul(text)) problems.push({ path, message: NUL_MESSAGE });
  return problems;
}
