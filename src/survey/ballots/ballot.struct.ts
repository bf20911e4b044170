import { Struct, refine, validate, type Failure } from 'superstruct';
import type { SurveyConfig } from '../config/config.struct.ts';
import type { FieldDef } from '../config/field.struct.ts';
import { allFields, ballotCategories, ballotSlots } from '../config/layout.ts';
import { AFFIRM_NAME, FILL_SECONDS_NAME, customReservationName, otherAnswerName, parseWriteInName, writeInIndices, writeInNames } from './ballot-keys.ts';
import { asksOtherText, isKind } from '../config/fields.ts';
import { isBlank, textOf, type BallotInput } from './ballot-input.ts';
import { MAX_SHORT_TEXT, MAX_TEXT_LENGTH, OptionalText, answerStruct, shortText } from './ballot-rules.ts';
import { affirmMessage, fieldMessages, writeInLimitMessage, writeInNameTooLong } from './field-messages.ts';
import { m } from '../../i18n/messages.ts';
import { configTakenSlugs, tileSlug, tilesFor, type ReservationKind } from './tiles.ts';
import { toProblems, type Problem } from '../errors.ts';
import { repeatOnBallot, voteCount, VOTE_REQUIREMENT, voteRequirementMessage } from './votes.ts';

/** The part of a survey configuration a ballot is checked against; a page's public survey has it all. */
export type BallotSurvey = Pick<
  SurveyConfig,
  'layout' | 'categories' | 'votes_per_category' | 'vote_requirement' | 'write_in_limit' | 'faces' | 'asktheexpert' | 'affirmation_points'
>;

/** What a ballot is checked against besides the survey: the state of the world where it is checked. */
export interface BallotContext {
  /**
   * Tile slugs that may not be reserved besides those the configuration marks taken, per kind.
   * The browser passes the look-up's `taken` list; the server passes none and settles claims
   * in the database (a ballot that loses a tile is kept, its reservation marked lost).
   */
  taken?: Partial<Record<ReservationKind, readonly string[]>>;
  /** The nominee list's seam: true when an id names a nominee of this survey. Absent: any non-empty id passes. */
  isKnownNominee?: (id: string) => boolean;
}

/** True when the ballot must carry the affirmation: its points are shown unless configured as an empty list. */
function affirmationRequired(config: Pick<SurveyConfig, 'affirmation_points'>): boolean {
  return config.affirmation_points === undefined || config.affirmation_points.length > 0;
}

/** The layout field that holds the nominations section, if the layout has one. */
function nominationField(config: Pick<SurveyConfig, 'layout'>): FieldDef | undefined {
  return allFields(config.layout).find((field) => isKind(field, 'nomination'));
}

/** Every fixed key a ballot of this survey may carry, with the struct for its value. */
function knownKeys(config: BallotSurvey, context: BallotContext): Map<string, Struct<unknown, null>> {
  const keys = new Map<string, Struct<unknown, null>>();
  const add = (key: string, struct: Struct<any, null>) => keys.set(key, struct as Struct<unknown, null>);
  for (const field of allFields(config.layout)) {
    if (isKind(field, 'reservation')) {
      add(field.name, tileStruct(config, field, field.type, context));
      add(customReservationName(field.name), shortText(MAX_SHORT_TEXT, fieldMessages.customTooLong(field, MAX_SHORT_TEXT)));
    } else if (isKind(field, 'answer') || isKind(field, 'file')) {
      add(field.name, answerStruct(field));
      if (asksOtherText(field)) add(otherAnswerName(field.name), shortText(MAX_TEXT_LENGTH, fieldMessages.maxLength(field, MAX_TEXT_LENGTH)));
    }
  }
  if (nominationField(config)) {
    const known = context.isKnownNominee;
    const nominee = refine(
      shortText(MAX_SHORT_TEXT, m.nominee_id_too_long()),
      'nominee',
      (id) => isBlank(id) || !known || known(id!.trim()) || m.nominee_from_suggestions(),
    );
    for (const { name } of ballotSlots(config)) add(name, nominee);
  }
  add(
    FILL_SECONDS_NAME,
    refine(OptionalText, 'seconds', (value) => isBlank(value) || /^\d{1,9}$/.test(value!.trim()) || m.seconds_whole()),
  );
  add(
    AFFIRM_NAME,
    refine(OptionalText, 'required', (value) => !affirmationRequired(config) || !isBlank(value) || affirmMessage()),
  );
  return keys;
}

function tileStruct(config: BallotSurvey, field: FieldDef, kind: ReservationKind, context: BallotContext): Struct<string | undefined, null> {
  const slugs = new Set(tilesFor(config, kind).map(tileSlug));
  const taken = new Set([...configTakenSlugs(config, kind), ...(context.taken?.[kind] ?? [])]);
  const known = refine(OptionalText, 'tile', (value) => isBlank(value) || slugs.has(value!) || fieldMessages.tileUnknown(field));
  return refine(known, 'taken', (value) => isBlank(value) || !taken.has(value!) || fieldMessages.tileTaken(field));
}

/** The struct of a write-in part: a short name, or a category that is one of the survey's category keys. */
function writeInStruct(config: BallotSurvey, part: string): Struct<unknown, null> {
  if (part === 'name') return shortText(MAX_SHORT_TEXT, writeInNameTooLong(MAX_SHORT_TEXT)) as Struct<unknown, null>;
  const categories = new Set(ballotCategories(config).map(({ key }) => key));
  return refine(OptionalText, 'category', (value) => isBlank(value) || categories.has(value!) || m.category_choose()) as Struct<unknown, null>;
}

type CrossFailure = Pick<Failure, 'path' | 'message'> & { refinement: string };

/** The rules that look across parts: unknown parts, write-ins, duplicate nominees, the vote requirement, reservations. */
function* crossRules(config: BallotSurvey, input: BallotInput, keys: Map<string, unknown>): Generator<CrossFailure> {
  const fail = (key: string, message: string): CrossFailure => ({ path: [key], message, refinement: 'ballot' });
  for (const key of Object.keys(input)) {
    if (!keys.has(key) && !parseWriteInName(key)) yield fail(key, 'is not a field of this ballot.');
  }
  const writeIns = writeInIndices(Object.keys(input))
    .map(writeInNames)
    .filter((names) => !isBlank(input[names.name]));
  for (const [n, names] of writeIns.entries()) {
    if (isBlank(input[names.category])) yield fail(names.category, m.write_in_category_required());
    if (n >= config.write_in_limit) yield fail(names.name, writeInLimitMessage(config.write_in_limit));
  }
  const filled = ballotSlots(config)
    .map((slot) => ({ ...slot, nomineeId: textOf(input[slot.name]) }))
    .filter((slot) => slot.nomineeId);
  for (const i of filled.keys()) {
    if (repeatOnBallot(filled, i) >= 0) yield fail(filled[i].name, m.nominee_repeated());
  }
  const nomination = nominationField(config);
  const votes = voteCount(
    filled.map((slot) => slot.nomineeId),
    writeIns.map((names) => input[names.name]),
  );
  if (nomination && votes < config.vote_requirement)
    yield { ...fail(nomination.name, voteRequirementMessage(config.vote_requirement)), refinement: VOTE_REQUIREMENT };
  for (const field of allFields(config.layout)) {
    if (!asksOtherText(field)) continue;
    const ticked = [input[field.name]].flat().includes('Other');
    if (ticked && isBlank(input[otherAnswerName(field.name)])) yield fail(otherAnswerName(field.name), fieldMessages.otherText(field));
  }
  for (const field of allFields(config.layout).filter((f) => isKind(f, 'reservation'))) {
    const tile = !isBlank(input[field.name]);
    const custom = !isBlank(input[customReservationName(field.name)]);
    if (tile && custom) yield fail(customReservationName(field.name), m.tile_or_custom());
    if (field.validation?.required && !tile && !custom) yield fail(field.name, fieldMessages.tileRequired(field));
  }
}

/**
 * The ballot struct of one survey, built from its layout and categories: the browser checks a
 * ballot with it before sending, and the server checks the body with it again. Every problem
 * is reported at once, each under the form-data name it concerns.
 */
export function ballotStruct(config: BallotSurvey, context: BallotContext = {}): Struct<BallotInput, null> {
  const keys = knownKeys(config, context);
  const writeIns = { name: writeInStruct(config, 'name'), category: writeInStruct(config, 'category') };
  return new Struct<BallotInput, null>({
    type: 'ballot',
    schema: null,
    validator: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? crossRules(config, value as BallotInput, keys)
        : { message: 'expected the fields of a ballot', refinement: 'ballot' },
    *entries(value) {
      if (typeof value !== 'object' || value === null) return;
      const input = value as BallotInput;
      for (const [key, struct] of keys) yield [key, input[key], struct];
      for (const key of Object.keys(input)) {
        const part = parseWriteInName(key)?.part;
        if (part) yield [key, input[key], writeIns[part]];
      }
    },
  });
}

/** Checks a ballot: the list of problems, empty when the ballot may be sent (browser) or stored (server). */
export function validateBallot(struct: Struct<BallotInput, null>, input: BallotInput): Problem[] {
  const [error] = validate(input, struct);
  return error ? toProblems(error) : [];
}
