/**
 * The HTML autofill tokens a field's `autocomplete` may hold (the HTML Standard, "Autofill"):
 * what an input is for, so that a browser can fill it in from what it knows of the voter
 * (WCAG 1.3.5, Identify Input Purpose). Only the survey configuration's struct reads this list;
 * the ballot carries the token as written.
 */

/** The field names that stand alone: `given-name`, `organization`… */
const FIELD_NAMES = new Set([
  'name',
  'honorific-prefix',
  'given-name',
  'additional-name',
  'family-name',
  'honorific-suffix',
  'nickname',
  'username',
  'new-password',
  'current-password',
  'one-time-code',
  'organization-title',
  'organization',
  'street-address',
  'address-line1',
  'address-line2',
  'address-line3',
  'address-level4',
  'address-level3',
  'address-level2',
  'address-level1',
  'country',
  'country-name',
  'postal-code',
  'cc-name',
  'cc-given-name',
  'cc-additional-name',
  'cc-family-name',
  'cc-number',
  'cc-exp',
  'cc-exp-month',
  'cc-exp-year',
  'cc-csc',
  'cc-type',
  'transaction-currency',
  'transaction-amount',
  'language',
  'bday',
  'bday-day',
  'bday-month',
  'bday-year',
  'sex',
  'url',
  'photo',
]);

/** The field names of a way to reach someone, which a kind (`work`, `mobile`…) may precede. */
const CONTACT_NAMES = new Set([
  'tel',
  'tel-country-code',
  'tel-national',
  'tel-area-code',
  'tel-local',
  'tel-local-prefix',
  'tel-local-suffix',
  'tel-extension',
  'email',
  'impp',
]);

const CONTACT_KINDS = new Set(['home', 'work', 'mobile', 'fax', 'pager']);

/**
 * A valid `autocomplete` value: `on`, `off`, or a field name with what may precede it
 * (`section-…`, `shipping` or `billing`, a contact's kind) and follow it (`webauthn`), in the
 * Standard's order. Written in lower case (the Standard ignores case; a survey file keeps one
 * spelling). The struct and the editor's schema both check a value with it.
 */
export const AUTOFILL_PATTERN = new RegExp(
  `^(?:on|off|(?:section-\\S*\\s+)?(?:(?:shipping|billing)\\s+)?(?:${[...FIELD_NAMES].join('|')}|(?:(?:${[...CONTACT_KINDS].join('|')})\\s+)?(?:${[...CONTACT_NAMES].join('|')}))(?:\\s+webauthn)?)$`,
);

/** True when `value` is a valid `autocomplete` value (AUTOFILL_PATTERN). */
export function isAutofillValue(value: string): boolean {
  return AUTOFILL_PATTERN.test(value);
}
