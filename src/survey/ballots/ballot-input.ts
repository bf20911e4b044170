/** A file as a ballot carries it; a browser `File` and a server-side `File` both fit. */
export interface BallotFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

/** One value of a ballot: a text, a file, or several of them under one name (a checkbox's ticked options). */
export type BallotValue = string | BallotFile | Array<string | BallotFile>;

/** A ballot as sent: multipart names (see ballot-keys.ts) → values. */
export type BallotInput = Record<string, BallotValue>;

/** True for a value that looks like a file: a name, a size and a type. */
export function isBallotFile(value: unknown): value is BallotFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as BallotFile).name === 'string' &&
    typeof (value as BallotFile).size === 'number' &&
    typeof (value as BallotFile).type === 'string'
  );
}

/**
 * Reads form data into a ballot: a name sent once gives its value, a name sent again gives a
 * list. The object has no prototype, so a part named `__proto__` is only a key like any other.
 */
export function formDataToBallot(form: FormData): BallotInput {
  const ballot: BallotInput = Object.create(null) as BallotInput;
  for (const [name, value] of form.entries()) {
    const current = ballot[name];
    if (current === undefined) ballot[name] = value;
    else ballot[name] = Array.isArray(current) ? [...current, value] : [current, value];
  }
  return ballot;
}

/**
 * Blank as the required rule means it (docs/spec.md, "Checking answers"): nothing, false, an empty list, a text of
 * only spaces; and a file input left empty, which browsers send as a nameless, empty file.
 */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isBlank);
  if (isBallotFile(value)) return value.size === 0 && value.name === '';
  return false;
}

/** The text of a single-valued part, or '' when it is missing or not a text. */
export function textOf(value: BallotValue | undefined): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** A ballot fit for an error report: texts as they are, files by name, size and type only, never their bytes. */
export function ballotSummary(input: BallotInput): Record<string, unknown> {
  const describe = (value: BallotValue): unknown =>
    Array.isArray(value) ? value.map(describe) : isBallotFile(value) ? { file: value.name, size: value.size, type: value.type } : value;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [name, describe(value)]));
}
