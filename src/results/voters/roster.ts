import { parse } from 'csv-parse/sync';
import { validate } from 'superstruct';
import { PERSON_NOMINEE_ID, type PersonValues, type SurveyConfig } from '../../survey/config/config.struct.ts';
import { allFields } from '../../survey/config/layout.ts';
import { answerStruct } from '../../survey/ballots/ballot-rules.ts';
import { toProblems, type Problem } from '../../survey/errors.ts';
import { emailKey } from '../tally/identity-keys.ts';
import { rosterName, voterFields } from '../../survey/people/voter.ts';
import { OperatorError } from '../operator.ts';
import { isKind } from '../../survey/config/fields.ts';

/** One person of a roster: the line they are on, their address as compared, and what their personal link carries. */
export interface RosterPerson {
  line: number;
  /** The address as compared (trimmed, lower case): people are matched across runs by it. */
  key: string;
  values: PersonValues;
}

/** The most problems one error lists. */
const MAX_PROBLEMS = 20;

/** The columns a roster may have besides layout fields: the address, the name the mailing greets, the nominee id. */
const ROSTER_COLUMNS = ['email', 'name', PERSON_NOMINEE_ID];

function fail(file: string, problems: Problem[]): never {
  // Each message may end a sentence of its own; the list ends with one full stop.
  const shown = problems.slice(0, MAX_PROBLEMS).map((problem) => `${problem.path}: ${problem.message.replace(/\.$/, '')}`);
  if (problems.length > MAX_PROBLEMS) shown.push(`… and ${problems.length - MAX_PROBLEMS} more`);
  throw new OperatorError(
    `The roster ${file} has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}, nothing was written: ${shown.join('; ')}.`,
  );
}

/**
 * Reads a roster (CSV with a header row): `email` is required; `name` is the mailing's greeting;
 * `nominee_id` ties the person to the nominee list; a column named like a layout field becomes
 * that field's prepopulated value (checked by the field's own rules); the survey's
 * `roster_columns` are kept for `responses --by`. Throws an OperatorError naming the line and
 * column of every bad cell, unknown column and repeated address.
 */
export function parseRoster(file: string, text: string, config: SurveyConfig, isKnownNominee?: (id: string) => boolean): RosterPerson[] {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, trim: true, relax_column_count: true }) as unknown as typeof records;
  } catch (error) {
    const { lines, message } = error as { lines?: number; message: string };
    fail(file, [{ path: `line ${lines ?? '?'}`, message: `is not valid CSV: ${message}` }]);
  }
  const [header, ...body] = records;
  if (!header) fail(file, [{ path: 'line 1', message: 'is empty: a roster starts with a header row naming its columns (email, …)' }]);
  const fields = new Map(
    allFields(config.layout)
      .filter((field) => isKind(field, 'answer'))
      .map((field) => [field.name, field]),
  );
  const known = [...new Set([...ROSTER_COLUMNS, ...fields.keys(), ...config.roster_columns])];
  const columns = header.record.map((name) => name.trim());
  const problems: Problem[] = [];
  columns.forEach((name, i) => {
    if (!known.includes(name))
      problems.push({ path: `line 1, column ${i + 1}`, message: `"${name}" is not a known column; the columns are ${known.join(', ')}` });
    else if (columns.indexOf(name) !== i) problems.push({ path: `line 1, column ${i + 1}`, message: `"${name}" is a second column of that name` });
  });
  if (!columns.includes('email')) problems.push({ path: 'line 1', message: 'needs a column named "email": each person is known by their address' });
  if (problems.length) fail(file, problems);

  const emailField = voterFields(config).email;
  // Each column's rules made once, not once a row: a roster of 100,000 people would build a million.
  const emailStruct = answerStruct({ name: 'email', type: 'email' });
  const structs = new Map([...fields].map(([name, field]) => [name, answerStruct(field)]));
  const lineOf = new Map<string, number>();
  const people: RosterPerson[] = [];
  for (const { record, info } of body) {
    const line = info.lines;
    if (record.length !== columns.length) {
      problems.push({
        path: `line ${line}`,
        message: `has ${record.length} values but the header names ${columns.length} columns (quote a value that holds a comma)`,
      });
      continue;
    }
    const values: PersonValues = {};
    columns.forEach((name, i) => {
      if (record[i] !== '') values[name] = record[i];
    });
    const email = values.email as string | undefined;
    if (!email) problems.push({ path: `line ${line}, column "email"`, message: 'is empty: every person needs an address' });
    else {
      const [error] = validate(email, emailStruct);
      if (error) problems.push({ path: `line ${line}, column "email"`, message: `"${email}" is not an email address` });
      const first = lineOf.get(emailKey(email));
      if (first !== undefined) problems.push({ path: `line ${line}, column "email"`, message: `"${email}" is already on line ${first}; each person once` });
      lineOf.set(emailKey(email), line);
    }
    for (const [name, value] of Object.entries(values)) {
      const struct = name === 'email' ? undefined : structs.get(name);
      if (struct) {
        const [error] = validate(value, struct);
        for (const problem of error ? toProblems(error) : [])
          problems.push({ path: `line ${line}, column "${name}"`, message: `"${value}": ${problem.message}` });
      }
    }
    const nomineeId = values[PERSON_NOMINEE_ID];
    if (typeof nomineeId === 'string' && isKnownNominee && !isKnownNominee(nomineeId)) {
      problems.push({ path: `line ${line}, column "${PERSON_NOMINEE_ID}"`, message: `"${nomineeId}" is not an id on the nominee list` });
    }
    // The layout's email field shows the address the link was sent to, unless the roster gives it apart.
    if (email && emailField && emailField !== 'email' && values[emailField] === undefined) values[emailField] = email;
    if (email) people.push({ line, key: emailKey(email), values });
  }
  if (!problems.length && !people.length) problems.push({ path: 'line 2', message: 'the roster holds no people' });
  if (problems.length) fail(file, problems);
  return people;
}

/** What `invite` does to a prepopulation map: who is new, who changed, who stays as they were, who the roster no longer names. */
export interface InvitePlan {
  /** The new map, secret → person. */
  map: Record<string, PersonValues>;
  added: string[];
  updated: string[];
  unchanged: string[];
  /** Secrets on file whose person the roster lacks: kept, or removed with `removeMissing`. */
  missing: string[];
  /** Every roster person's secret, in the roster's order. */
  rosterSecrets: string[];
}

/** The address a person on file is known by: their `email`, else the layout's email field. */
function keyOnFile(person: PersonValues, emailField: string | undefined): string {
  const value = person.email ?? (emailField ? person[emailField] : undefined);
  return typeof value === 'string' ? emailKey(value) : '';
}

const sameValues = (a: PersonValues, b: PersonValues) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * Merges a roster into the prepopulation on file: a person already there (by address) keeps
 * their secret, with the roster's values; a new person gets `newSecret()`; people on file the
 * roster lacks are kept unless `removeMissing`.
 */
export function planInvitations(
  roster: readonly RosterPerson[],
  onFile: Record<string, PersonValues>,
  config: SurveyConfig,
  options: { removeMissing: boolean; newSecret: () => string },
): InvitePlan {
  const emailField = voterFields(config).email;
  const secretOf = new Map<string, string>();
  for (const [secret, person] of Object.entries(onFile)) {
    const key = keyOnFile(person, emailField);
    if (key && !secretOf.has(key)) secretOf.set(key, secret);
  }
  const plan: InvitePlan = { map: {}, added: [], updated: [], unchanged: [], missing: [], rosterSecrets: [] };
  const named = new Set<string>();
  for (const person of roster) {
    let secret = secretOf.get(person.key);
    if (secret === undefined) {
      do secret = options.newSecret();
      while (Object.hasOwn(onFile, secret) || Object.hasOwn(plan.map, secret));
      plan.added.push(secret);
    } else (sameValues(onFile[secret], person.values) ? plan.unchanged : plan.updated).push(secret);
    plan.map[secret] = person.values;
    plan.rosterSecrets.push(secret);
    named.add(secret);
  }
  for (const [secret, person] of Object.entries(onFile)) {
    if (named.has(secret)) continue;
    plan.missing.push(secret);
    if (!options.removeMissing) plan.map[secret] = person;
  }
  return plan;
}

/** The name a mailing greets a person by: the roster's `name`, else their name fields joined (the domain's rule). */
export function greetingName(person: PersonValues, config: SurveyConfig): string {
  return rosterName(person, config);
}

/** A person's personal link: the site's address, the survey's slug and the secret. */
export function personalLink(baseUrl: string, slug: string, secret: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${slug}/${encodeURIComponent(secret)}`;
}
