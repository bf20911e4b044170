import { array, defaulted, enums, integer, max, min, number, object, optional, refine, size, type Infer } from 'superstruct';
import { FieldName } from './field.struct.ts';

/** A nominee list column a tally rule may compare: the list's detail columns. */
const NomineeColumn = enums(['specialty', 'city', 'practice']);

/** Whether a rule is off, marks the votes it catches (still counted), or excludes them. */
const RuleMode = enums(['off', 'flag', 'exclude']);

/** The keys that tell one voter from another when later ballots are screened as duplicates. */
const DUPLICATE_KEYS = ['secret', 'email', 'license'] as const;

const DuplicateKeys = refine(array(enums(DUPLICATE_KEYS)), 'DuplicateKeys', (keys) =>
  new Set(keys).size === keys.length ? true : 'lists a key twice: name each of secret, email and license at most once',
);

/**
 * The methodology a survey's votes are counted by, the `tally:` block of survey.yaml. Every
 * key has a default, and the defaults are the rules the tally has always applied.
 */
export const TallyConfig = object({
  /** A vote for oneself: never counted, or counted only beside enough votes for nominees outside one's practice. */
  self_vote: defaulted(
    object({
      rule: defaulted(enums(['exclude', 'outside_votes']), 'outside_votes'),
      outside_votes: defaulted(size(integer(), 1, 50), 2),
    }),
    {},
  ),
  /** A vote for a colleague of one's own practice: counted, excluded, or counted only when the ballot also names someone outside it. */
  same_practice: defaulted(enums(['count', 'exclude', 'outside_match']), 'count'),
  /** Whether a nominee must belong to the slot's sub-category, by a column of the nominee list. */
  subcategory_match: defaulted(
    object({
      rule: defaulted(RuleMode, 'off'),
      nominee_field: defaulted(NomineeColumn, 'specialty'),
    }),
    {},
  ),
  /** Whether a nominee must be in the voter's region: the voter's answer to a layout field against a column of the list. */
  region_match: defaulted(
    object({
      rule: defaulted(RuleMode, 'off'),
      voter_field: optional(FieldName),
      nominee_field: defaulted(NomineeColumn, 'city'),
    }),
    {},
  ),
  /** Points per slot, first slot first (a write-in earns the last slot's); `[3, 2, 1]` weighs a first choice more. */
  points: defaulted(size(array(size(integer(), 1, 100)), 1, 5), [1]),
  /** What makes a later ballot a duplicate of an earlier one: the same personal link, email or license. */
  duplicates: defaulted(DuplicateKeys, [...DUPLICATE_KEYS]),
  /** The fewest counted votes a nominee needs to be published. */
  min_votes: defaulted(min(integer(), 0), 0),
  /** The least share, in percent, of the sub-category's counted ballots that must name a nominee for them to be published. */
  min_share: defaulted(max(min(number(), 0), 100), 0),
  /** How many nominees are published per sub-category, and what a tie at the edge does. */
  publish: defaulted(
    object({
      top: optional(min(integer(), 1)),
      ties: defaulted(enums(['include', 'exclude']), 'include'),
    }),
    {},
  ),
});

/** A survey's counting methodology after validation and defaults. */
export type TallyConfig = Infer<typeof TallyConfig>;
