import type { SurveyConfig } from '../config/config.struct.ts';
import { fieldRow } from '../config/fields.ts';
import { allFields } from '../config/layout.ts';

/** The layout fields that say who a voter is: email, license, practice and the parts of the name. */
export interface VoterFields {
  email?: string;
  license?: string;
  practice?: string;
  /** The field holding the voter's region, when the methodology compares regions. */
  region?: string;
  name: string[];
}

/** What voterFields reads of a survey: its layout, and the settings that name the voter's fields where the survey has them. */
export type VoterSurvey = Pick<SurveyConfig, 'layout'> & Partial<Pick<SurveyConfig, 'workplace_field' | 'license_field' | 'name_fields' | 'tally'>>;

/**
 * The voter fields of a survey's layout: the first email field, `license_field` (default
 * `medical-license`), `workplace_field` (default `medical-practice`), and `name_fields`, by
 * default the subfields of a nested field called `name`, else a field called `full-name` or `name`.
 * A survey without a setting (the page carries `name_fields` only) has no such field.
 */
export function voterFields(config: VoterSurvey): VoterFields {
  const fields = allFields(config.layout);
  const names = new Set(fields.map((field) => field.name));
  const has = (name: string | undefined): name is string => name !== undefined && names.has(name);
  const nested = config.layout.flat().find((field) => field.type === 'nested' && field.name === 'name');
  const name =
    config.name_fields ??
    (nested ? (nested.fields ?? []).map((field) => field.name) : ['full-name', 'name'].filter((candidate) => names.has(candidate)).slice(0, 1));
  const region = config.tally?.region_match.rule === 'off' ? undefined : config.tally?.region_match.voter_field;
  return {
    email: fields.find((field) => fieldRow(field).email)?.name,
    license: has(config.license_field) ? config.license_field : undefined,
    practice: has(config.workplace_field) ? config.workplace_field : undefined,
    ...(has(region) ? { region } : {}),
    name: name.filter((field) => names.has(field)),
  };
}

/** The fields whose answers voterAnswers reads. */
export function voterFieldNames(fields: VoterFields): string[] {
  return [fields.email, fields.license, fields.practice, fields.region, ...fields.name].filter((name): name is string => Boolean(name));
}

/** Who a ballot says its voter is, each part as written (trimmed), '' where the ballot leaves it blank or the survey has no such field. */
export interface VoterAnswers {
  /** The name fields' answers joined by spaces, in the order of the fields. */
  name: string;
  email: string;
  license: string;
  /** The practice (the survey's `workplace_field`). */
  practice: string;
  /** The region (the methodology's `region_match.voter_field`), when the methodology compares regions. */
  region?: string;
}

/**
 * "Who is this voter", read once for every side from a ballot's answers (`answer`: field →
 * its first value): the page's error report names its user by it (src/ballot/ballot.ts), and
 * the tally, the signals and `purge-personal` build their voter on it (src/results/tally/voter.ts).
 */
export function voterAnswers(fields: VoterFields, answer: (field: string) => string | undefined): VoterAnswers {
  const text = (field: string | undefined) => (field ? (answer(field) ?? '').trim() : '');
  return {
    name: fields.name.map(text).filter(Boolean).join(' '),
    email: text(fields.email),
    license: text(fields.license),
    practice: text(fields.practice),
    ...(fields.region ? { region: text(fields.region) } : {}),
  };
}

/**
 * The address a person on the roster (a prepopulated person) is mailed at: their `email`, else the
 * layout's email field; undefined when they have none.
 */
export function rosterAddress(person: Readonly<Record<string, string | string[] | undefined>>, config: VoterSurvey): string | undefined {
  let value = person.email;
  // The layout is read only when the roster gave no address: a ballot's receipt and each of a campaign's people ask.
  if (value === undefined) {
    const emailField = voterFields(config).email;
    value = emailField ? person[emailField] : undefined;
  }
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** The name a message greets a person on the roster by: their `name`, else their name fields joined. */
export function rosterName(person: Readonly<Record<string, string | string[] | undefined>>, config: VoterSurvey): string {
  if (typeof person.name === 'string') return person.name;
  return voterFields(config)
    .name.map((field) => person[field])
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join(' ');
}
