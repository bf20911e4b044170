import type { Struct } from 'superstruct';
import { ballotStruct, validateBallot } from '../../survey/ballots/ballot.struct.ts';
import { formDataToBallot, type BallotInput } from '../../survey/ballots/ballot-input.ts';
import { ballotParts, type BallotParts } from '../../survey/ballots/ballot-parts.ts';
import { FILL_SECONDS_NAME, MAX_FILL_SECONDS } from '../../survey/ballots/ballot-keys.ts';
import type { FieldDef } from '../../survey/config/field.struct.ts';
import { allFields } from '../../survey/config/layout.ts';
import { withReadOnlyValues } from '../../survey/ballots/read-only.ts';
import type { PersonValues } from '../../survey/config/config.struct.ts';
import type { ServerSurvey } from '../surveys.ts';
import { checkFileContents, type CheckedFile } from './uploads.ts';
import { refused, type Refused } from './intake-outcome.ts';
import { requestLanguage } from '../language.ts';
import { localizeSurvey } from '../../survey/config/translations.ts';
import { m } from '../../i18n/messages.ts';

const structs = new WeakMap<ServerSurvey, Map<string, Struct<BallotInput, null>>>();

/**
 * The ballot struct the server checks a survey's ballots with, built once per survey. Tiles the
 * configuration marks taken are refused outright; tiles taken by other ballots are settled in
 * the database, where a ballot that loses the race is kept with its reservation marked lost.
 * A nominee id the list does not hold does not refuse the ballot: the voter's page may know a
 * newer or older list than this process, so the ballot is stored and the tally excludes that
 * one vote as `not_on_list`.
 */
function serverBallotStruct(survey: ServerSurvey): Struct<BallotInput, null> {
  // Its messages are the request's language's, naming the fields by their labels in that language.
  const lang = requestLanguage();
  let byLanguage = structs.get(survey);
  if (!byLanguage) structs.set(survey, (byLanguage = new Map()));
  let struct = byLanguage.get(lang);
  if (!struct) {
    struct = ballotStruct(localizeSurvey(survey.config, lang));
    byLanguage.set(lang, struct);
  }
  return struct;
}

/** The survey's file fields by name. */
function fileFields(survey: ServerSurvey): Map<string, FieldDef> {
  return new Map(
    allFields(survey.config.layout)
      .filter((field) => field.type === 'file')
      .map((field) => [field.name, field]),
  );
}

/** A ballot that passed every check: the parts to store, and its files with the types their contents show. */
export interface CheckedBallot {
  parts: BallotParts<File>;
  files: CheckedFile[];
  /** The page's fill time in whole seconds, at most a day; null when the ballot came without it. */
  fillSeconds: number | null;
}

/**
 * Checks a ballot's parts against its survey: the personal link's person's read-only values in place of
 * what was sent, then the ballot struct (the same the browser uses) and the contents of the
 * files no rule has flagged yet. Every problem is listed in one refusal (422).
 */
export async function checkBallot(survey: ServerSurvey, person: PersonValues | undefined, form: FormData): Promise<CheckedBallot | Refused> {
  const ballot = withReadOnlyValues(survey.config.layout, person, formDataToBallot(form));
  const problems = validateBallot(serverBallotStruct(survey), ballot);
  const parts = ballotParts<File>(survey.config, ballot);
  const flagged = new Set(problems.map((problem) => problem.path));
  const files = await checkFileContents(
    parts.files.filter((part) => !flagged.has(part.field)),
    fileFields(survey),
  );
  problems.push(...files.problems);
  if (problems.length) return refused('invalid_ballot', m.api_needs_another_look(), problems);
  const seconds = form.get(FILL_SECONDS_NAME);
  const fillSeconds = typeof seconds === 'string' && seconds.trim() ? Math.min(Number(seconds.trim()), MAX_FILL_SECONDS) : null;
  return { parts, files: files.files, fillSeconds };
}
