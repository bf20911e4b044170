import { PERSON_NOMINEE_ID, type PersonValues, type SurveyConfig } from '../../survey/config.struct.ts';
import { allFields } from '../../survey/layout.ts';
import { emailKey, licenseKey, nameWords } from './identity-keys.ts';

/** The layout fields that say who a voter is: email, license, practice and the parts of the name. */
export interface VoterFields {
  email?: string;
  license?: string;
  practice?: string;
  /** The field holding the voter's region, when the methodology compares regions. */
  region?: string;
  name: string[];
}

/** Who cast a ballot, as the integrity rules compare: every part optional, as a ballot may leave it blank. */
export interface Voter {
  /** The voter's id on the nominee list, from their personal link's prepopulated record. */
  nomineeId?: string;
  nameWords: string[];
  /** The name as written, for explanations. */
  name: string;
  email: string;
  license: string;
  /** The practice as written (the survey's `workplace_field`). */
  practice: string;
  /** The region as written (the methodology's `region_match.voter_field`), when the methodology compares regions. */
  region?: string;
  /**
   * After `purge-personal`, when the name is gone: the ballot's nominees the voter's name
   * matched at purge time, nominee id → how. The self-vote rule reads these instead of the name.
   */
  selfMatches?: Record<string, string>;
}

/**
 * The voter fields of a survey's layout: the first email field, `license_field` (default
 * `medical-license`), `workplace_field` (default `medical-practice`), and `name_fields`, by
 * default the subfields of a nested field called `name`, else a field called `full-name` or `name`.
 */
export function voterFields(
  config: Pick<SurveyConfig, 'layout' | 'workplace_field' | 'license_field' | 'name_fields'> & Partial<Pick<SurveyConfig, 'tally'>>,
): VoterFields {
  const fields = allFields(config.layout);
  const names = new Set(fields.map((field) => field.name));
  const nested = config.layout.flat().find((field) => field.type === 'nested' && field.name === 'name');
  const name =
    config.name_fields ??
    (nested ? (nested.fields ?? []).map((field) => field.name) : ['full-name', 'name'].filter((candidate) => names.has(candidate)).slice(0, 1));
  const region = config.tally?.region_match.rule === 'off' ? undefined : config.tally?.region_match.voter_field;
  return {
    email: fields.find((field) => field.type === 'email')?.name,
    license: names.has(config.license_field) ? config.license_field : undefined,
    practice: names.has(config.workplace_field) ? config.workplace_field : undefined,
    ...(region && names.has(region) ? { region } : {}),
    name: name.filter((field) => names.has(field)),
  };
}

/** The fields whose answers `voterOf` reads. */
export function voterFieldNames(fields: VoterFields): string[] {
  return [fields.email, fields.license, fields.practice, fields.region, ...fields.name].filter((name): name is string => Boolean(name));
}

/** The voter of one ballot, from its answers (field → first value) and, for a personal link, the prepopulated record. */
export function voterOf(fields: VoterFields, answers: Pick<ReadonlyMap<string, string>, 'get'>, person?: PersonValues): Voter {
  const answer = (field: string | undefined) => (field ? (answers.get(field) ?? '').trim() : '');
  const name = fields.name.map(answer).filter(Boolean).join(' ');
  const nomineeId = person?.[PERSON_NOMINEE_ID];
  return {
    nomineeId: typeof nomineeId === 'string' && nomineeId ? nomineeId : undefined,
    nameWords: nameWords(name),
    name,
    email: emailKey(answer(fields.email)),
    license: licenseKey(answer(fields.license)),
    practice: answer(fields.practice),
    ...(fields.region ? { region: answer(fields.region) } : {}),
  };
}
