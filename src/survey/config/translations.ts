import { array, object, optional, record, string, type Infer } from 'superstruct';
import type { FieldShape } from './field.struct.ts';
import type { KeyedProblem } from '../errors.ts';
import { ADS_GROUP } from './layout.ts';
import { PSEUDO_LOCALE, pseudoText } from '../../i18n/pseudo.ts';

/**
 * A survey's own texts in each further language it offers (`languages: [en, es]`, the first the
 * default), under `translations.<lang>`. Option values and category keys are never translated:
 * a translation gives the words they show, so a ballot counts the same in every language.
 */

/** The languages the product's own words are written in (project.inlang/settings.json); a survey may offer these. */
export const SHIPPED_LANGUAGES = ['en', 'es'] as const;

/** One of the shipped languages. */
type ShippedLanguage = (typeof SHIPPED_LANGUAGES)[number];

/** Is `lang` (a roster's cell, a page's address) one of the languages a survey offers? */
export const offers = (languages: readonly ShippedLanguage[], lang: string): lang is ShippedLanguage => (languages as readonly string[]).includes(lang);

/** One field's texts in a language: its label, placeholder, HTML, validation message, and its options' words by option. */
const FieldTranslation = object({
  label: optional(string()),
  placeholder: optional(string()),
  html: optional(string()),
  message: optional(string()),
  options: optional(record(string(), string())),
});

/** One mail template's subject and body (Markdown) in a language. */
const MailTranslation = object({ subject: optional(string()), body: optional(string()) });

/** A survey's texts in one language; what is left out shows in the default language. */
export const Translation = object({
  survey_title: optional(string()),
  survey_subtitle: optional(string()),
  social_title: optional(string()),
  welcome_title: optional(string()),
  welcome: optional(string()),
  rules: optional(array(string())),
  affirmation_points: optional(array(string())),
  thank_you_message: optional(string()),
  faces_past_participants: optional(array(string())),
  asktheexpert_past_experts: optional(array(string())),
  /** Each category group's and sub-category's words, by its key in `categories`. */
  categories: optional(record(string(), string())),
  /** Each reservation tile's words (a Faces specialty, an Expert question), by its title in `faces` or `asktheexpert`. */
  tiles: optional(record(string(), string())),
  /** Each layout field's texts, by field name. */
  fields: optional(record(string(), FieldTranslation)),
  /** Each mail template's subject and body, by template name (`invitation`, `reminder`, `receipt`). */
  mail: optional(record(string(), MailTranslation)),
});

/** A survey's texts in one language. */
export type Translation = Infer<typeof Translation>;

/** The part of a survey configuration a translation covers. */
interface TranslatableSurvey {
  survey_title?: string;
  survey_subtitle?: string;
  social_title?: string;
  welcome_title?: string;
  welcome?: string;
  rules: string[];
  affirmation_points?: string[];
  thank_you_message?: string;
  faces_past_participants?: string[];
  asktheexpert_past_experts?: string[];
  categories: Record<string, unknown>;
  category_labels?: Record<string, string>;
  faces?: Array<{ title: string }>;
  asktheexpert?: Array<{ title: string }>;
  tile_labels?: Record<string, string>;
  layout: FieldShape[][];
  languages: readonly string[];
  translations?: Record<string, Translation>;
}

const TEXT_KEYS = ['survey_title', 'survey_subtitle', 'social_title', 'welcome_title', 'welcome', 'thank_you_message'] as const;
const LIST_KEYS = ['rules', 'affirmation_points', 'faces_past_participants', 'asktheexpert_past_experts'] as const;
const FIELD_TEXTS = ['label', 'placeholder', 'html'] as const;

/** The category groups' and sub-categories' keys, ADS aside. */
function categoryKeys(categories: Record<string, unknown>): string[] {
  return Object.entries(categories)
    .filter(([group]) => group !== ADS_GROUP)
    .flatMap(([group, subs]) => [group, ...(Array.isArray(subs) ? (subs as string[]) : [])]);
}

/** The reservation tiles' titles, Faces and Experts. */
const tileTitles = (config: TranslatableSurvey): string[] => [...(config.faces ?? []), ...(config.asktheexpert ?? [])].map((tile) => tile.title);

/** Every field of a layout, subfields included. */
function everyField(layout: FieldShape[][]): FieldShape[] {
  const all: FieldShape[] = [];
  const visit = (field: FieldShape) => {
    all.push(field);
    field.fields?.forEach(visit);
  };
  layout.flat().forEach(visit);
  return all;
}

/** A field in a language: its texts and its options' words from the translation, the rest (name, type, option values) as it is. */
function localizeField(field: FieldShape, texts: Record<string, Infer<typeof FieldTranslation>>): FieldShape {
  const own = texts[field.name] ?? {};
  const out: FieldShape & { option_labels?: Record<string, string> } = { ...field };
  for (const key of FIELD_TEXTS) if (own[key] !== undefined && field[key] !== undefined) out[key] = own[key];
  if (own.message !== undefined && field.validation?.message !== undefined) out.validation = { ...field.validation, message: own.message };
  if (own.options) out.option_labels = { ...(field as { option_labels?: Record<string, string> }).option_labels, ...own.options };
  if (field.fields) out.fields = field.fields.map((sub) => localizeField(sub, texts));
  return out;
}

/**
 * A survey configuration in one of its languages: its texts from `translations.<lang>` where
 * given, the default language's elsewhere; category keys and option values unchanged, their
 * words in `category_labels` and each field's `option_labels`. The default language gives the
 * configuration as it is.
 */
export function localizeSurvey<T extends TranslatableSurvey>(config: T, lang: string): T {
  const translation = config.translations?.[lang];
  if (!translation || lang === config.languages[0]) return config;
  const out: T = { ...config };
  for (const key of TEXT_KEYS) if (translation[key] !== undefined && config[key] !== undefined) out[key] = translation[key];
  for (const key of LIST_KEYS) if (translation[key] !== undefined && config[key] !== undefined) out[key] = translation[key] as never;
  if (translation.categories) out.category_labels = { ...config.category_labels, ...translation.categories };
  if (translation.tiles) out.tile_labels = { ...config.tile_labels, ...translation.tiles };
  out.layout = config.layout.map((row) => row.map((field) => localizeField(field, translation.fields ?? {})));
  return out;
}

/**
 * The survey's texts a further language leaves in the default language, each at its key path
 * (`translations.es.fields.email.label`). The build lists them as warnings, or as errors under
 * `strict_translations: true`; the page shows the default language's words in their place.
 */
export function translationGaps(config: TranslatableSurvey): KeyedProblem[] {
  const gaps: KeyedProblem[] = [];
  const gap = (keys: Array<string | number>, what: string) =>
    gaps.push({
      keys,
      path: keys.map((key, i) => (typeof key === 'number' ? `[${key}]` : i ? `.${key}` : key)).join(''),
      message: `${what} is not translated: the page shows the default language's`,
    });
  for (const lang of config.languages.slice(1)) {
    const base = ['translations', lang];
    const translation = config.translations?.[lang] ?? {};
    for (const key of TEXT_KEYS) if (config[key] !== undefined && translation[key] === undefined) gap([...base, key], key);
    for (const key of LIST_KEYS) {
      const given = translation[key];
      if (config[key]?.length && given === undefined) gap([...base, key], key);
      else if (given && config[key] && given.length !== config[key]!.length)
        gap([...base, key], `${key} has ${given.length} of ${config[key]!.length} items and`);
    }
    for (const key of categoryKeys(config.categories))
      if (translation.categories?.[key] === undefined) gap([...base, 'categories', key], `the category "${key}"`);
    for (const title of tileTitles(config)) if (translation.tiles?.[title] === undefined) gap([...base, 'tiles', title], `the tile "${title}"`);
    for (const field of everyField(config.layout)) {
      const own = translation.fields?.[field.name];
      for (const key of FIELD_TEXTS)
        if (field[key] !== undefined && own?.[key] === undefined) gap([...base, 'fields', field.name, key], `${field.name}'s ${key}`);
      if (field.validation?.message !== undefined && own?.message === undefined) gap([...base, 'fields', field.name, 'message'], `${field.name}'s message`);
      for (const option of field.options ?? []) {
        if (own?.options?.[option] === undefined) gap([...base, 'fields', field.name, 'options', option], `${field.name}'s option "${option}"`);
      }
    }
  }
  return gaps;
}

/** The problems of the translations' keys themselves: a language the survey does not offer, a field or category that does not exist. */
export function translationProblems(config: TranslatableSurvey): KeyedProblem[] {
  const problems: KeyedProblem[] = [];
  const problem = (keys: string[], message: string) => problems.push({ keys, path: keys.join('.'), message, atKey: true });
  const fields = new Set(everyField(config.layout).map((field) => field.name));
  const categories = new Set(categoryKeys(config.categories));
  for (const [lang, translation] of Object.entries(config.translations ?? {})) {
    if (!config.languages.includes(lang) || lang === config.languages[0]) {
      problem(['translations', lang], `"${lang}" is not one of the survey's further languages (languages: [${config.languages.join(', ')}])`);
      continue;
    }
    for (const name of Object.keys(translation.fields ?? {})) {
      if (!fields.has(name)) problem(['translations', lang, 'fields', name], `"${name}" is not a field of the layout`);
    }
    for (const key of Object.keys(translation.categories ?? {})) {
      if (!categories.has(key)) problem(['translations', lang, 'categories', key], `"${key}" is not a category group or sub-category`);
    }
    for (const title of Object.keys(translation.tiles ?? {})) {
      if (!tileTitles(config).includes(title))
        problem(['translations', lang, 'tiles', title], `"${title}" is not the title of a tile of faces or asktheexpert`);
    }
  }
  return problems;
}

/**
 * The survey offered in the pseudo-locale too (src/i18n/pseudo.ts), as a test build's catalogue
 * has it: when its default language is English and it offers another, `en-XA` is added to its
 * languages with every text a translation holds made from the English one (`mail` gives the
 * mail templates' subjects and bodies), so that a page or a mail in it shows in plain English only
 * what escaped. Any other survey is returned as it is.
 */
export function withPseudoLocale<T extends TranslatableSurvey>(config: T, mail: Record<string, { subject: string; body: string }>): T {
  if (config.languages[0] !== 'en' || config.languages.length < 2 || config.languages.includes(PSEUDO_LOCALE)) return config;
  const translation: Translation = { categories: {}, fields: {}, mail: {} };
  for (const key of TEXT_KEYS) if (config[key] !== undefined) translation[key] = pseudoText(config[key]!);
  for (const key of LIST_KEYS) if (config[key] !== undefined) translation[key] = config[key]!.map(pseudoText);
  for (const key of categoryKeys(config.categories)) translation.categories![key] = pseudoText(config.category_labels?.[key] ?? key);
  translation.tiles = Object.fromEntries(tileTitles(config).map((title) => [title, pseudoText(config.tile_labels?.[title] ?? title)]));
  for (const field of everyField(config.layout)) {
    const own: Infer<typeof FieldTranslation> = {};
    for (const key of FIELD_TEXTS) if (field[key] !== undefined) own[key] = pseudoText(field[key]!);
    if (field.validation?.message !== undefined) own.message = pseudoText(field.validation.message);
    if (field.options) own.options = Object.fromEntries(field.options.map((option) => [option, pseudoText(field.option_labels?.[option] ?? option)]));
    translation.fields![field.name] = own;
  }
  for (const [kind, { subject, body }] of Object.entries(mail)) translation.mail![kind] = { subject: pseudoText(subject), body: pseudoText(body) };
  return { ...config, languages: [...config.languages, PSEUDO_LOCALE], translations: { ...config.translations, [PSEUDO_LOCALE]: translation } };
}

/**
 * The path of a survey's page in one of its languages: `/{slug}/{page}` in its default language,
 * `/{lang}/{slug}/{page}` in a further one (`page` is `''` for the ballot, `thankyou`, a secret…).
 */
export function surveyPath(survey: { slug: string; languages: readonly string[] }, lang: string, page = ''): string {
  const prefix = !survey.languages?.length || lang === survey.languages[0] ? '' : `/${lang}`;
  return `${prefix}/${survey.slug}/${page}`;
}

/** A page's path under its survey, without the language's prefix: `thankyou` of `/es/{slug}/thankyou`, `''` of the ballot. */
export function pageOfPath(survey: { slug: string; languages: readonly string[] }, pathname: string): string {
  const parts = pathname.split('/').filter(Boolean);
  const start = parts[0] === survey.slug ? 1 : parts[1] === survey.slug && survey.languages.includes(parts[0]!) ? 2 : parts.length;
  return parts.slice(start).join('/');
}

/** A language's name in that language, as a language switch shows it: "English", "Español". */
export function languageName(lang: string): string {
  // Intl calls it "English (Pseudo-Accents)": in its own language, it is English pseudo-localized.
  if (lang === PSEUDO_LOCALE) return pseudoText('English');
  const name = new Intl.DisplayNames([lang], { type: 'language' }).of(lang) ?? lang;
  return name.charAt(0).toLocaleUpperCase(lang) + name.slice(1);
}
