import { MAIL_ADDRESS_PATTERN, PERSON_ROSTER_KEYS, THIRD_PARTY_ID_PATTERNS, URL_PATTERN } from './config.struct.ts';
import { FIELD_NAME_PATTERN } from '../ballots/ballot-keys.ts';
import { AUTOFILL_PATTERN } from './autofill.ts';
import { FIELD_TABLE, hasOptions, type FieldTypeName } from './fields.ts';
import { ADS_GROUP } from './layout.ts';
import type { JsonSchema, KeyDocs } from './struct-schema.ts';
import { SHIPPED_LANGUAGES } from './translations.ts';

/**
 * What every key of `survey.yaml` and `site.yaml` means, beside the structs that check them
 * (config.struct.ts, field.struct.ts, tally.struct.ts): the editors' JSON Schemas and the keys'
 * reference in docs/surveys.md are made from the structs and this table (editor-schemas.ts).
 * It also says what a struct cannot show of itself: each default's value (a test holds it to what
 * the struct fills in), the bounds of `size` and `min`, the patterns of refined texts, the shape
 * of the categories, of a tile written as its title, of the prepopulation map, and which fields
 * each field type needs. A key added to a struct without a line here fails the unit test, and
 * so does a line naming no key.
 */

/** A field name's rule, for every key that names a layout field. */
const FIELD_NAME: JsonSchema = {
  pattern: FIELD_NAME_PATTERN.source,
  patternErrorMessage: 'expected a name of letters, digits, dashes and underscores that starts with a letter',
};

/** An absolute http(s) URL or a path of the site. */
const WEB_ADDRESS: JsonSchema = {
  pattern: URL_PATTERN.source,
  patternErrorMessage: 'expected an absolute http(s) URL or a site path starting with "/"',
};

/** A mail address, bare or with a name; the struct trims it before it checks it. */
const MAIL_ADDRESS: JsonSchema = {
  pattern: `^\\s*${MAIL_ADDRESS_PATTERN.source.replace(/^\^|\$$/g, '')}\\s*$`,
  patternErrorMessage: 'expected a mail address such as votes@example.com or "Metro Health <votes@example.com>"',
};

/** A text that may not be empty (superstruct's `nonempty`). */
const TEXT = { minLength: 1 };

/** A group or sub-category name: no bracket, since the ballot's form-data names are built with them. */
const CATEGORY_NAME: JsonSchema = {
  pattern: '^[^\\[\\]]*$',
  patternErrorMessage: 'a group or sub-category name cannot hold "[" or "]" (the ballot\'s form-data names are built with them)',
};

/** A reservation tile: its title alone, which the struct makes into `{ title }`, or the whole object. */
const TILE = (derived: JsonSchema): JsonSchema => ({ anyOf: [{ type: 'string', ...TEXT }, derived] });

/** The field types whose answer is one or more of their `options`, which they must list. */
const OPTION_TYPES = (Object.keys(FIELD_TABLE) as FieldTypeName[]).filter(hasOptions);

/** A rule for the fields of the given types (JSON Schema's if/then/else): what they must have, and what the others must. */
function forTypes(types: readonly string[], then: JsonSchema, otherwise?: JsonSchema): JsonSchema {
  return {
    if: { required: ['type'], properties: { type: { enum: types } } },
    then,
    ...(otherwise ? { else: otherwise } : {}),
  };
}

/** What each field type needs besides a name, which Field's refinement checks: its options, its subfields, its HTML. */
const FIELD = (derived: JsonSchema): JsonSchema => ({
  ...derived,
  allOf: [
    forTypes(OPTION_TYPES, { required: ['options'], properties: { options: { type: 'array', minItems: 1 } } }),
    forTypes(['nested'], { required: ['fields'], properties: { fields: { type: 'array', minItems: 1 } } }, { not: { required: ['fields'] } }),
    forTypes(['html'], { required: ['html'] }),
  ],
});

/** A list in words: `a`, `b` and `c` (or `or`). */
const listed = (names: readonly string[], last = 'and') =>
  names
    .map((name) => `\`${name}\``)
    .join(', ')
    .replace(/, ([^,]*)$/, ` ${last} $1`);

/** What a tally rule does with the votes it catches. */
const RULE_MODES = {
  off: 'the rule is off',
  flag: 'the vote counts, and is flagged (a `flagged_<reason>` column)',
  exclude: 'the vote is not counted',
};

/** The table of `surveys/<slug>/survey.yaml`. */
export const SURVEY_KEYS: KeyDocs = {
  project_id: { meaning: "the survey's id in the API and the ballots (unique across surveys)", schema: TEXT },
  project_type: { meaning: 'kind of project', default: 'form', values: { form: 'a ballot form' } },
  survey_title: { meaning: "the header's title; the title is the page title" },
  survey_subtitle: { meaning: "the header's subtitle" },
  social_title: { meaning: 'title when the link is shared', otherwise: 'the survey title' },
  publication_logo: { meaning: 'logo image URL (`https://…` or `/media/…` from `public/`)', schema: WEB_ADDRESS },
  welcome_title: { meaning: "the welcome block's title; the block is shown only when `welcome` is set" },
  welcome_splash: { meaning: "the welcome block's image URL (`https://…` or `/media/…` from `public/`)", schema: WEB_ADDRESS },
  welcome: { meaning: "the welcome block's HTML text; the block is shown only when it is set" },
  rules: { meaning: 'list of rules under "Rules for Submission"; hidden when empty', default: [] },
  'rules[]': { meaning: 'one rule, as text', schema: TEXT },

  layout: { meaning: "rows of fields, shown top to bottom, a row's fields side by side (the keys of a field are `layout[][].…`)" },
  'layout[]': { meaning: 'a row of fields, side by side' },
  'layout[][]': { meaning: 'a field of the ballot: its `name`, its `type`, and what that type needs', definition: 'field', schema: FIELD },
  'layout[][].name': {
    meaning: "the field's name: letters, digits, `-` and `_`, starting with a letter; its answer is sent, stored and exported under it",
    schema: FIELD_NAME,
  },
  'layout[][].type': {
    meaning: 'what the field is (the field table, `src/survey/config/fields.ts`)',
    values: {
      nested: 'a group of fields under one legend (`fields`)',
      text: 'a one-line input',
      select: 'a list of its `options`, starting on "Select One"',
      email: 'a one-line input that must hold an address',
      nomination: 'the nominations section and the write-ins',
      faces: 'a reservation section of the `faces` tiles',
      asktheexpert: 'a reservation section of the `asktheexpert` tiles',
      html: "the survey's own content (`html`); it sends nothing",
      slider: 'one of its `options` by position; left alone it answers the first',
      textarea: 'a text of several lines',
      radio: 'one of its `options`, as buttons',
      'fancy-radio': 'one of its `options`, as cards',
      checkbox: 'any of its `options`; a ticked "Other" asks for its text',
      file: 'a file upload',
    },
  },
  'layout[][].label': { meaning: 'the words that name the field to the voter, in its label and its messages', otherwise: 'its name' },
  'layout[][].placeholder': { meaning: 'the hint shown in the empty input' },
  'layout[][].icon': { meaning: 'a small icon before the label: `user`, `envelope`, `phone`, `hospital` or `id-card`; another name shows none' },
  'layout[][].class': { meaning: "CSS classes added to the field's element" },
  'layout[][].disabled': { meaning: 'read-only: the field shows its value, which the voter cannot change' },
  'layout[][].validation': { meaning: "the rules the field's answer must follow, checked alike by the browser and the survey API" },
  'layout[][].validation.required': { meaning: 'an answer must be given: blank (nothing, spaces only, no option ticked, no file) fails' },
  'layout[][].validation.email': { meaning: 'the answer must look like a mail address (an empty answer passes)' },
  'layout[][].validation.minLength': { meaning: 'the fewest characters the answer may have' },
  'layout[][].validation.maxLength': { meaning: 'the most characters the answer may have', otherwise: '5,000 for a text' },
  'layout[][].validation.pattern': {
    meaning: 'a regular expression the answer must match, checked when the survey is built (write `^…$` for the whole answer)',
  },
  'layout[][].validation.message': { meaning: 'replaces every message of its field' },
  'layout[][].validation.npi': { meaning: 'the answer must be a US National Provider Identifier: 10 digits, the last its check digit' },
  'layout[][].validation.maxFileSize': { meaning: 'for files: the largest accepted file, in bytes' },
  'layout[][].validation.accept': { meaning: 'for files: the accepted MIME types, such as `image/png` or `application/pdf`' },
  'layout[][].options': { meaning: `the choices, for ${listed(OPTION_TYPES)} (which need them)` },
  'layout[][].options[]': { meaning: 'one choice', schema: TEXT },
  'layout[][].html': { meaning: 'the content an `html` field shows, as HTML (which it needs)' },
  'layout[][].prepopulated': { meaning: 'read-only when a personal link carries a value' },
  'layout[][].personal': { meaning: 'personal data: `purge-personal` removes the answer after the vote' },
  'layout[][].autocomplete': {
    meaning:
      'what a text, email, textarea or select field holds, as an HTML autocomplete token (`given-name`, `family-name`, `email`, `tel`, `organization`…), so that a browser can fill it in; the build refuses any other word',
    otherwise: '`email` for an email field, none for the others',
    schema: {
      pattern: AUTOFILL_PATTERN.source,
      patternErrorMessage: 'expected an HTML autocomplete token in lower case, such as given-name, family-name, email, tel, organization or off',
    },
  },
  'layout[][].labelAbove': { meaning: '`false` sets the label beside the input (for a `nested` field, hides its legend)' },
  'layout[][].fields': { meaning: 'the subfields of a `nested` field (which needs them; no other type may have them)' },
  'layout[][].option_labels': {
    meaning:
      'the words each option shows, by option, where they differ from it; the option itself is what the ballot sends (a translation sets them per language)',
    otherwise: 'each option shows as written',
  },

  categories: {
    meaning: `group name → list of sub-categories (no \`[\` or \`]\` in a name: they build the ballot's form-data names); the group \`${ADS_GROUP}\` maps a group name to advertisement image URLs`,
    // Categories is a `dynamic` struct: each key's struct depends on the key.
    schema: {
      type: 'object',
      propertyNames: CATEGORY_NAME,
      properties: {
        [ADS_GROUP]: {
          description: 'a category group → the advertisement image URLs shown under it',
          type: 'object',
          additionalProperties: { type: 'array', items: { type: 'string', ...WEB_ADDRESS } },
        },
      },
      additionalProperties: {
        description: "a category group: its sub-categories, in the ballot's order",
        type: 'array',
        minItems: 1,
        items: { type: 'string', ...TEXT, ...CATEGORY_NAME },
      },
    },
  },
  votes_per_category: { meaning: 'nomination slots per sub-category, 1 to 5', default: 3, schema: { minimum: 1, maximum: 5 } },
  vote_requirement: { meaning: 'the fewest names a ballot must carry', default: 1, schema: { minimum: 0 } },
  write_in_limit: { meaning: 'the most write-ins a ballot may carry', default: 10, schema: { minimum: 0 } },
  expiration_date: {
    meaning: "the survey's close: `2030-12-31` (end of that day, UTC) or a full ISO time",
    otherwise: 'never',
    schema: { examples: ['2030-12-31', '2030-12-31T23:59:59Z'] },
  },
  blank_surveys: { meaning: 'whether the public link opens a blank ballot; `false` allows personal links only', default: true },
  prepopulation: {
    meaning: 'secret → field name → value, or the name of a YAML file in the folder holding that map',
    // A union: superstruct keeps its members to itself.
    schema: {
      anyOf: [
        { type: 'string', description: 'the name of a YAML file in the survey folder (or in PEERVOTE_PRIVATE_DIR) holding the map' },
        {
          type: 'object',
          description: "a person's secret → their values",
          propertyNames: TEXT,
          additionalProperties: {
            type: 'object',
            description: `field name (or ${listed(PERSON_ROSTER_KEYS, 'or')}) → value`,
            propertyNames: FIELD_NAME,
            additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
          },
        },
      ],
    },
  },
  nominees: {
    meaning: 'the nominee list: a CSV or JSON Lines file in the folder; required when the layout has a nomination field',
    schema: {
      pattern: '^(?!\\.)[\\w.-]+\\.([cC][sS][vV]|[jJ][sS][oO][nN][lL]|[nN][dD][jJ][sS][oO][nN])$',
      patternErrorMessage: 'expected the name of a .csv or .jsonl file in the survey folder, such as nominees.csv',
    },
  },
  faces: { meaning: 'reservation tiles of the `faces` section: a title, or `{ title, slug, taken }`', default: [] },
  'faces[]': { meaning: 'a tile: its title, or `{ title, slug, taken }`', schema: TILE },
  'faces[].title': { meaning: "the tile's title", schema: TEXT },
  'faces[].slug': { meaning: "the tile's id in ballots and look-ups", otherwise: 'its title in lower-case words joined by dashes' },
  'faces[].taken': { meaning: '`true` shows the tile as taken, and no ballot may claim it' },
  faces_past_participants: { meaning: 'list shown as past participants under the `faces` tiles', default: [] },
  asktheexpert: { meaning: 'reservation tiles of the `asktheexpert` section: a title, or `{ title, slug, taken }`', default: [] },
  'asktheexpert[]': { meaning: 'a tile: its title, or `{ title, slug, taken }`', schema: TILE },
  'asktheexpert[].title': { meaning: "the tile's title", schema: TEXT },
  'asktheexpert[].slug': { meaning: "the tile's id in ballots and look-ups", otherwise: 'its title in lower-case words joined by dashes' },
  'asktheexpert[].taken': { meaning: '`true` shows the tile as taken, and no ballot may claim it' },
  asktheexpert_past_experts: { meaning: 'list shown as past experts under the `asktheexpert` tiles', default: [] },
  affirmation_points: { meaning: 'statements the voter affirms; an empty list hides the section', otherwise: '"This is my one and only submission."' },
  thank_you_message: { meaning: 'HTML for the thank-you page', otherwise: '"Thank you for taking part in {survey title}."' },
  google_sheet_title: { meaning: 'operator setting sent with the ballot (as `sheet`)' },
  bucket: { meaning: 'operator setting sent with the ballot' },
  analytics_id: {
    meaning: 'a Google Analytics 4 measurement id (`G-…`), loaded only when set',
    guide: '[deploying.md](deploying.md#error-reporting-analytics-and-security-headers)',
    schema: { pattern: THIRD_PARTY_ID_PATTERNS.analytics_id.source, patternErrorMessage: 'expected a Google Analytics 4 measurement id such as G-AB12CD34EF' },
  },
  facebook_pixel: {
    meaning: 'a Facebook pixel id (digits), loaded only when set',
    schema: {
      pattern: THIRD_PARTY_ID_PATTERNS.facebook_pixel.source,
      patternErrorMessage: 'expected a Facebook pixel id, digits only, such as 1234567890123456',
    },
  },
  linkedin_insights: {
    meaning: 'a LinkedIn Insight partner id (digits), loaded only when set',
    schema: {
      pattern: THIRD_PARTY_ID_PATTERNS.linkedin_insights.source,
      patternErrorMessage: 'expected a LinkedIn Insight Tag partner id, digits only, such as 5123456',
    },
  },
  enable_google_translate: { meaning: 'the translate widget in the welcome block (needs `welcome`)', default: false },
  algolia_app_id: { meaning: 'nominee search on Algolia: the application id (set all three `algolia_` keys, or none)', otherwise: 'local search' },
  algolia_api_key: { meaning: "nominee search on Algolia: a search-only key, which every voter's browser reads", otherwise: 'local search' },
  algolia_index: { meaning: 'nominee search on Algolia: the index the survey searches', otherwise: 'local search' },
  workplace_field: {
    meaning: "the field that names the voter's workplace in workplace stats and the tally's practice rule",
    default: 'medical-practice',
    schema: FIELD_NAME,
  },
  license_field: { meaning: "the field that holds the voter's license number, for the tally's rules", default: 'medical-license', schema: FIELD_NAME },
  name_fields: {
    meaning: "the fields whose answers make the voter's name, for the tally's self-vote rule and the error report's user",
    otherwise: 'the subfields of a nested field `name`, else `full-name` or `name`',
  },
  'name_fields[]': { meaning: 'a field of the layout', schema: FIELD_NAME },

  tally: { meaning: 'the methodology the votes are counted by: `results tally` applies it, `results methodology` puts it in words; every key is optional' },
  'tally.self_vote': { meaning: "a vote for oneself: never counted, or counted only beside enough votes for nominees outside one's practice" },
  'tally.self_vote.rule': {
    meaning: "`exclude`: a vote for oneself never counts; `outside_votes`: it counts beside enough votes outside one's practice",
    default: 'outside_votes',
    values: { exclude: 'a vote for oneself never counts', outside_votes: "it counts beside enough votes outside one's practice" },
  },
  'tally.self_vote.outside_votes': {
    meaning: "how many other nominees outside the voter's practice the ballot must name in that sub-category",
    default: 2,
    schema: { minimum: 1, maximum: 50 },
  },
  'tally.same_practice': {
    meaning:
      "a vote for a colleague of the voter's practice: `count`, `exclude`, or `outside_match` (counts when the ballot also names someone outside the practice in that sub-category)",
    default: 'count',
    values: {
      count: 'the vote counts',
      exclude: 'the vote is not counted',
      outside_match: 'it counts when the ballot also names someone outside the practice in that sub-category',
    },
  },
  'tally.subcategory_match': { meaning: "whether a nominee must belong to the slot's sub-category, by a column of the nominee list" },
  'tally.subcategory_match.rule': {
    meaning: "`flag` or `exclude` a nominee whose list column is not the slot's sub-category (case and spaces aside; an empty column passes)",
    default: 'off',
    values: RULE_MODES,
  },
  'tally.subcategory_match.nominee_field': { meaning: 'the list column compared: `specialty`, `city` or `practice`', default: 'specialty' },
  'tally.region_match': { meaning: "whether a nominee must be in the voter's region: the voter's answer to a layout field against a column of the list" },
  'tally.region_match.rule': {
    meaning: "`flag` or `exclude` a nominee outside the voter's region (an empty answer or column passes)",
    default: 'off',
    values: RULE_MODES,
  },
  'tally.region_match.voter_field': { meaning: "the layout field holding the voter's region; required when the rule is on", schema: FIELD_NAME },
  'tally.region_match.nominee_field': { meaning: 'the list column it is compared with', default: 'city' },
  'tally.points': {
    meaning:
      'points per slot, first slot first (`[3, 2, 1]`: a first choice weighs 3); slots past the list, and reconciled write-ins, earn the last value. When not all 1, the CSV gains a `points` column and ranks and shares follow the points',
    default: [1],
    schema: { minItems: 1, maxItems: 5 },
  },
  'tally.points[]': { meaning: "one slot's points, 1 to 100", schema: { minimum: 1, maximum: 100 } },
  'tally.duplicates': {
    meaning: 'what makes a later ballot a duplicate: the same personal link (`secret`), `email` or `license`; `[]` screens none',
    default: ['secret', 'email', 'license'],
    schema: { uniqueItems: true },
  },
  'tally.duplicates[]': {
    meaning: 'one way of telling a voter, named at most once',
    values: { secret: 'the same personal link', email: 'the same email (any case)', license: 'the same license (letters and digits only)' },
  },
  'tally.min_votes': { meaning: 'the fewest counted votes a nominee needs to be a winner (published)', default: 0, schema: { minimum: 0 } },
  'tally.min_share': {
    meaning: "the least share, in percent, of the sub-category's counted ballots (those with a counted vote in it) that must name the nominee",
    default: 0,
    schema: { minimum: 0, maximum: 100 },
  },
  'tally.publish': { meaning: 'how many nominees are published per sub-category, and what a tie at the edge does' },
  'tally.publish.top': { meaning: 'how many are published per sub-category (the `winner` column)', schema: { minimum: 1 } },
  'tally.publish.ties': {
    meaning: 'a tie for the last place: `include` all of them, or `exclude` all of them',
    default: 'include',
    values: { include: 'every nominee tied for the last place is published', exclude: 'none of the nominees tied for the last place is' },
  },

  results: { meaning: 'who may see the standings before they are published', guide: '[counting.md](counting.md#sealing-and-publishing-the-results)' },
  'results.sealed': {
    meaning: '`true` keeps `tally`, `export`, `report` and `publish` shut until `expiration_date`, which it then needs',
    default: false,
  },
  roster_columns: {
    meaning: 'roster columns besides layout fields that `invite` keeps with each person (never sent to a page), for `responses --by`: `[specialty, region]`',
    default: [],
  },
  'roster_columns[]': { meaning: 'a column of the roster', schema: FIELD_NAME },
  mail: { meaning: 'the invitations, reminders and receipts Peervote sends', guide: '[operators.md](operators.md#mailing-the-invitations)' },
  'mail.from': {
    meaning: "the sender of the survey's mail, over `MAIL_FROM`: `votes@example.com` or `Metro Health <votes@example.com>`",
    schema: MAIL_ADDRESS,
  },
  'mail.reply_to': {
    meaning:
      "the address replies go to, the contact a voter not found on the roster is given, and the address the survey's accessibility statement gives for reporting a problem",
    schema: MAIL_ADDRESS,
  },
  'mail.receipt': { meaning: '`true`: a ballot from a personal link, or from an address proven with a code, gets its receipt by mail', default: false },
  verify: {
    guide: '[verified voters](#verified-voters-and-changed-ballots)',
    meaning:
      'who may send a ballot on the public link: `none` (anyone), `email` (whoever proves an address with a mailed code) or `roster` (an invited person found by licence number or address)',
    default: 'none',
    values: {
      none: 'anyone',
      email: 'whoever proves an address with a mailed code',
      roster: 'an invited person found by licence number or address',
    },
  },
  amend: {
    meaning:
      '`until_close` lets a voter on a personal link or verified send again before `expiration_date`: the new ballot replaces theirs; `never` refuses a second ballot',
    default: 'never',
    values: { never: 'a second ballot is refused', until_close: "a new ballot replaces the voter's own until `expiration_date`" },
  },
  languages: {
    guide: '[languages](#languages)',
    meaning:
      "the languages the survey's pages are offered in, the first its default (today's addresses); each further one is served under `/{lang}/{slug}/` with its texts from `translations`. The product's own words come in `en` and `es`",
    default: ['en'],
    schema: { minItems: 1, maxItems: SHIPPED_LANGUAGES.length },
  },
  translations: {
    guide: '[languages](#languages)',
    meaning: "the survey's texts in each further language of `languages`, by language; a text left out shows in the default language, and the build warns",
    otherwise: 'every page in the default language',
  },
  'translations.*.survey_title': { meaning: '`survey_title` in this language' },
  'translations.*.survey_subtitle': { meaning: '`survey_subtitle` in this language' },
  'translations.*.social_title': { meaning: '`social_title` in this language' },
  'translations.*.welcome_title': { meaning: '`welcome_title` in this language' },
  'translations.*.welcome': { meaning: '`welcome` in this language (HTML)' },
  'translations.*.rules': { meaning: '`rules` in this language, as many and in the same order' },
  'translations.*.affirmation_points': { meaning: '`affirmation_points` in this language, as many and in the same order' },
  'translations.*.thank_you_message': { meaning: '`thank_you_message` in this language (HTML)' },
  'translations.*.faces_past_participants': { meaning: '`faces_past_participants` in this language, as many and in the same order' },
  'translations.*.asktheexpert_past_experts': { meaning: '`asktheexpert_past_experts` in this language, as many and in the same order' },
  'translations.*.tiles': { meaning: 'each tile of `faces` and `asktheexpert`, by its title → its words in this language; the ballot still sends its slug' },
  'translations.*.categories': { meaning: 'each category group and sub-category of `categories` → its words in this language; the keys stay as they are' },
  'translations.*.fields': { meaning: 'each layout field, by name → its texts in this language' },
  'translations.*.fields.*.label': { meaning: "the field's `label` in this language" },
  'translations.*.fields.*.placeholder': { meaning: "the field's `placeholder` in this language" },
  'translations.*.fields.*.html': { meaning: "an `html` field's HTML in this language" },
  'translations.*.fields.*.message': { meaning: "the field's `validation.message` in this language" },
  'translations.*.fields.*.options': { meaning: 'each option → its words in this language; the ballot still sends the option itself' },
  'translations.*.mail': { meaning: 'each mail template (`invitation`, `reminder`, `receipt`) → its `subject` and `body` in this language' },
  'translations.*.mail.*.subject': { meaning: "the template's subject in this language" },
  'translations.*.mail.*.body': { meaning: "the template's body (Markdown) in this language" },
  strict_translations: {
    guide: '[languages](#languages)',
    meaning: '`true`: a text a further language leaves untranslated stops the build, instead of a warning',
    default: false,
  },
  time_zone: {
    meaning: 'the time zone the mail writes its dates in (`{{closes}}`), an IANA name such as `America/New_York`',
    default: 'UTC',
    schema: { minLength: 1 },
  },
  category_labels: {
    meaning: 'each category group or sub-category of `categories` → the words it shows, where they differ from its key (a translation sets them per language)',
    otherwise: 'each shows its key',
  },
  tile_labels: {
    meaning:
      'each tile of `faces` and `asktheexpert`, by its title → the words it shows, where they differ from its title (a translation sets them per language); its slug stays the same',
    otherwise: 'each shows its title',
  },
};

/** The table of `surveys/site.yaml`. */
export const SITE_KEYS: KeyDocs = {
  default_survey: { meaning: 'the survey that "/" leads to: the folder name of one under `surveys/`', schema: TEXT },
  provider_name: { meaning: 'shown in every page\'s footer as "Powered by <provider_name>"', default: 'Peervote', schema: TEXT },
  provider_url: { meaning: 'where the footer\'s "Powered by" links to', otherwise: 'no link', schema: WEB_ADDRESS },
};
