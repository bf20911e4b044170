import { object, optional, refine, string, type Infer } from 'superstruct';

/** The optional columns of a nominee list, shown beside the name to tell people of one name apart. */
export const DETAIL_COLUMNS = ['specialty', 'city', 'practice'] as const;

/**
 * Columns for the operators' tally alone: `license` tells a voter who nominated themselves
 * apart from a namesake. Never sent to a search index or a browser.
 */
const PRIVATE_COLUMNS = ['license'] as const;

/** Every column a nominee list may have: `id` and `name` are required. */
export const NOMINEE_COLUMNS = ['id', 'name', ...DETAIL_COLUMNS, ...PRIVATE_COLUMNS] as const;

/** A nominee id: letters, digits, dots, dashes and underscores, as it travels in a ballot and an Algolia objectID. */
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const NomineeId = refine(string(), 'NomineeId', (value) =>
  ID_PATTERN.test(value)
    ? true
    : `expected an id of letters, digits, ".", "-" or "_" (at most 64, starting with a letter or digit), got ${JSON.stringify(value)}`,
);

/** A name: anything but blank. */
const hasName = (value: string) => value.trim() !== '';

const Name = refine(string(), 'Name', (value) => (hasName(value) ? true : 'is empty: every nominee needs a name'));

/** One nominee of a survey's list (docs/spec.md, "Nominations": id, name; plus the detail columns). */
export const Nominee = object({
  id: NomineeId,
  name: Name,
  specialty: optional(string()),
  city: optional(string()),
  practice: optional(string()),
  license: optional(string()),
});

/** A nominee after validation. */
export type Nominee = Infer<typeof Nominee>;

/**
 * Whether a row of a nominee file is a Nominee as the struct above has it (its own keys all
 * columns, an id and a name as the struct's refinements want them, every other value a string or
 * absent), told without the struct, which costs about fifty times as much a row: a list holds up
 * to a million rows, read at every start of the API and every operator command. Only a `true` is
 * final; a row turned down goes through the struct, for its answer and its problems.
 */
export function isPlainNominee(values: Record<string, unknown>): values is Nominee {
  if (typeof values.id !== 'string' || !ID_PATTERN.test(values.id) || typeof values.name !== 'string' || !hasName(values.name)) return false;
  for (const key of Object.keys(values)) {
    if (!(NOMINEE_COLUMNS as readonly string[]).includes(key)) return false;
    const value = values[key];
    if (value !== undefined && typeof value !== 'string') return false;
  }
  return true;
}
