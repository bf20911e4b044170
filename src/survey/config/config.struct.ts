import {
  array,
  boolean,
  coerce,
  defaulted,
  dynamic,
  enums,
  integer,
  min,
  nonempty,
  object,
  optional,
  record,
  refine,
  size,
  string,
  union,
  type Infer,
} from 'superstruct';
import { Layout, FieldName } from './field.struct.ts';
import { ADS_GROUP, type CategoriesShape } from './layout.ts';
import { TallyConfig } from './tally.struct.ts';
import { SHIPPED_LANGUAGES, Translation } from './translations.ts';

/** The shape of an image or page address: absolute http(s), or a path on the site. */
export const URL_PATTERN = /^(https?:\/\/\S+|\/\S*)$/;

const Url = refine(string(), 'Url', (value) =>
  URL_PATTERN.test(value) ? true : `expected an absolute http(s) URL or a site path starting with "/", got "${value}"`,
);

const DateString = refine(string(), 'Date', (value) =>
  Number.isNaN(Date.parse(value)) ? `expected a date such as 2030-12-31 or 2030-12-31T23:59:59Z, got "${value}"` : true,
);

/** The documented shapes of the third parties' ids, by key of survey.yaml. */
export const THIRD_PARTY_ID_PATTERNS = {
  analytics_id: /^G-[A-Z0-9]{4,20}$/,
  facebook_pixel: /^\d{5,20}$/,
  linkedin_insights: /^\d{3,12}$/,
};

/** A third party's id: it goes into script URLs and calls, so only its documented shape passes. */
const ThirdPartyId = (name: string, shape: RegExp, example: string) =>
  refine(string(), name, (value) => (shape.test(value) ? true : `expected ${example}, got "${value}"`));

const NomineeFileName = refine(string(), 'NomineeFileName', (value) =>
  /^[\w.-]+\.(csv|jsonl|ndjson)$/i.test(value) && !value.startsWith('.')
    ? true
    : `expected the name of a .csv or .jsonl file in the survey folder, such as nominees.csv, got "${value}"`,
);

/**
 * Categories: group name → its sub-categories; the group named ADS instead maps a
 * category name to the advertisement image URLs shown under that category.
 */
const Categories = refine(
  dynamic<CategoriesShape>((value) => {
    const keys = value && typeof value === 'object' ? Object.keys(value) : [];
    const shape = Object.fromEntries(keys.map((key) => [key, key === ADS_GROUP ? record(string(), array(Url)) : nonempty(array(nonempty(string())))]));
    return object(shape) as never;
  }),
  'Categories',
  (categories) => {
    // Each slot's form-data name is nominations[group][sub-category][n]: a bracket in a name would break it.
    const names = Object.entries(categories).flatMap(([group, subcategories]) => (group === ADS_GROUP ? [] : [group, ...(subcategories as string[])]));
    const bad = names.find((name) => /[[\]]/.test(name));
    return bad === undefined ? true : `a group or sub-category name cannot hold "[" or "]" (the ballot's form-data names are built with them), got "${bad}"`;
  },
);

/** The shape of a mail address, bare or with a name (checked after trimming). */
export const MAIL_ADDRESS_PATTERN = /^([^<>@\n]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+)$/;

/** A mail address, bare (`votes@example.com`) or with a name (`Metro Health <votes@example.com>`). */
const MailAddress = refine(string(), 'MailAddress', (value) =>
  MAIL_ADDRESS_PATTERN.test(value.trim()) ? true : `expected a mail address such as votes@example.com or "Metro Health <votes@example.com>", got "${value}"`,
);

/** The survey's mail: its sender and reply address (over MAIL_FROM), and whether a ballot from a personal link gets a receipt by mail. */
const MailConfig = object({
  from: optional(MailAddress),
  reply_to: optional(MailAddress),
  receipt: defaulted(boolean(), false),
});

/** A reservation tile: written as its title, or with a slug and a `taken` flag. */
export const Tile = coerce(object({ title: nonempty(string()), slug: optional(string()), taken: optional(boolean()) }), string(), (title) => ({ title }));

/** One person's prepopulated answers: field name → value. */
export const PersonValues = record(FieldName, union([string(), array(string())]));

/**
 * The key of a prepopulated person that is no field: the person's id on the nominee list, so
 * that the tally knows a self-vote for certain. The survey API never sends it to a page.
 */
export const PERSON_NOMINEE_ID = 'nominee_id';

/**
 * The keys a prepopulated person may carry besides layout fields, written by `invite` from the
 * roster: the address the links go to, the name the mailing greets, the nominee id. The API
 * sends a page the person's layout fields only.
 */
export const PERSON_ROSTER_KEYS = ['email', 'name', PERSON_NOMINEE_ID] as const;

/** The prepopulation map: secret → that person's values; or the name of a YAML file in the survey folder holding it. */
export const Prepopulation = union([string(), record(nonempty(string()), PersonValues)]);

/** True for a time zone `Intl` knows by its IANA name. */
function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The whole survey configuration of docs/spec.md, "Survey configuration", as written in `surveys/<slug>/survey.yaml`. */
export const SurveyConfig = object({
  project_id: nonempty(string()),
  project_type: defaulted(enums(['form']), 'form'),
  survey_title: optional(string()),
  survey_subtitle: optional(string()),
  social_title: optional(string()),
  publication_logo: optional(Url),
  welcome_title: optional(string()),
  welcome_splash: optional(Url),
  welcome: optional(string()),
  rules: defaulted(array(nonempty(string())), []),
  layout: Layout,
  categories: Categories,
  votes_per_category: defaulted(size(integer(), 1, 5), 3),
  vote_requirement: defaulted(min(integer(), 0), 1),
  write_in_limit: defaulted(min(integer(), 0), 10),
  expiration_date: optional(DateString),
  blank_surveys: defaulted(boolean(), true),
  prepopulation: optional(Prepopulation),
  /** The nominee list: a CSV (`.csv`) or JSON Lines (`.jsonl`) file in the survey folder with at least `id` and `name`. */
  nominees: optional(NomineeFileName),
  faces: defaulted(array(Tile), []),
  faces_past_participants: defaulted(array(string()), []),
  asktheexpert: defaulted(array(Tile), []),
  asktheexpert_past_experts: defaulted(array(string()), []),
  affirmation_points: optional(array(string())),
  thank_you_message: optional(string()),
  google_sheet_title: optional(string()),
  bucket: optional(string()),
  /** A Google Analytics 4 measurement id. */
  analytics_id: optional(ThirdPartyId('AnalyticsId', THIRD_PARTY_ID_PATTERNS.analytics_id, 'a Google Analytics 4 measurement id such as G-AB12CD34EF')),
  /** A Facebook (Meta) pixel id. */
  facebook_pixel: optional(ThirdPartyId('FacebookPixel', THIRD_PARTY_ID_PATTERNS.facebook_pixel, 'a Facebook pixel id, digits only, such as 1234567890123456')),
  /** A LinkedIn Insight Tag partner id. */
  linkedin_insights: optional(
    ThirdPartyId('LinkedInPartnerId', THIRD_PARTY_ID_PATTERNS.linkedin_insights, 'a LinkedIn Insight Tag partner id, digits only, such as 5123456'),
  ),
  enable_google_translate: defaulted(boolean(), false),
  algolia_app_id: optional(string()),
  algolia_api_key: optional(string()),
  algolia_index: optional(string()),
  /** The layout field whose answer names the voter's workplace, for workplace stats. */
  workplace_field: defaulted(FieldName, 'medical-practice'),
  /** The layout field whose answer is the voter's license number, for the tally's integrity rules. */
  license_field: defaulted(FieldName, 'medical-license'),
  /** The layout fields whose answers, in order, make the voter's name, for the tally's self-vote rule. */
  name_fields: optional(array(FieldName)),
  /** The methodology the operators' tally counts by (see tally.struct.ts); the defaults are the sample rules. */
  tally: defaulted(TallyConfig, {}),
  /** Who may see the standings: `sealed: true` keeps tally, export, report and publish shut until `expiration_date`. */
  results: defaulted(object({ sealed: defaulted(boolean(), false) }), {}),
  /** Roster columns besides layout fields that `invite` keeps with each person, for `responses --by` (specialty, region…). */
  roster_columns: defaulted(array(FieldName), []),
  /** Invitations, reminders and receipts sent by Peervote: sender, reply address, receipts by mail. */
  mail: defaulted(MailConfig, {}),
  /**
   * Who may send a ballot on the public link: anyone (`none`); whoever proves an address with a
   * mailed code (`email`); or an invited person found by licence number or address (`roster`).
   */
  verify: defaulted(enums(['none', 'email', 'roster']), 'none'),
  /** Whether a voter on a personal link or verified may send a new ballot that replaces theirs before the close (`until_close`). */
  amend: defaulted(enums(['never', 'until_close']), 'never'),
  /** The languages the survey's pages are offered in, the first its default: `[en, es]`. */
  languages: defaulted(size(array(enums(SHIPPED_LANGUAGES)), 1, SHIPPED_LANGUAGES.length), ['en']),
  /** The survey's texts in each further language; what is left out shows in the default language. */
  translations: optional(record(string(), Translation)),
  /** A text left untranslated stops the build instead of warning. */
  strict_translations: defaulted(boolean(), false),
  /** The time zone the survey's mail writes its dates and times in, an IANA name such as `America/New_York`. */
  time_zone: defaulted(
    refine(string(), 'TimeZone', (value) => (isTimeZone(value) ? true : `expected an IANA time zone such as America/New_York or UTC, got "${value}"`)),
    'UTC',
  ),
  /** The words a category group or sub-category shows, by its key, when they differ from it. */
  category_labels: optional(record(string(), string())),
  /** The words a reservation tile shows, by its title, when they differ from it. */
  tile_labels: optional(record(string(), string())),
});

/** A survey configuration after validation and defaults. */
export type SurveyConfig = Infer<typeof SurveyConfig>;

/** A reservation tile after coercion. */
export type Tile = Infer<typeof Tile>;

/** One person's prepopulated answers. */
export type PersonValues = Infer<typeof PersonValues>;

/** The site-wide settings in `surveys/site.yaml`. */
export const SiteConfig = object({
  default_survey: nonempty(string()),
  provider_name: defaulted(nonempty(string()), 'Peervote'),
  provider_url: optional(Url),
});

/** Site-wide settings after validation. */
export type SiteConfig = Infer<typeof SiteConfig>;
