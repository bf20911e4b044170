import { PERSON_NOMINEE_ID, type PersonValues } from '../../survey/config/config.struct.ts';
import { voterAnswers, type VoterFields } from '../../survey/people/voter.ts';
import { emailKey, licenseKey } from './identity-keys.ts';
import { nameWords } from '../../survey/nominees/name-key.ts';

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

/** The voter of one ballot, from its answers (field → first value) and, for a personal link, the prepopulated record. */
export function voterOf(fields: VoterFields, answers: Pick<ReadonlyMap<string, string>, 'get'>, person?: PersonValues): Voter {
  const written = voterAnswers(fields, (field) => answers.get(field));
  const nomineeId = person?.[PERSON_NOMINEE_ID];
  return {
    nomineeId: typeof nomineeId === 'string' && nomineeId ? nomineeId : undefined,
    nameWords: nameWords(written.name),
    name: written.name,
    email: emailKey(written.email),
    license: licenseKey(written.license),
    practice: written.practice,
    ...(written.region !== undefined ? { region: written.region } : {}),
  };
}
