import { intlLocale, m } from '../i18n/messages.ts';

/**
 * The accessibility statement's words in the language being rendered: every one comes from the
 * message catalogue (`statement_*` in src/i18n/messages/), whose build-time check fails the build
 * on a shipped language that lacks one. A list is its numbered messages; a link inside a sentence
 * is the message's `{address}` or `{wcag}`, split around here.
 */

/** Where the statement's links lead, the same in every language: each of these pages is in English. */
export const STATEMENT_LINKS = {
  abilityNet: 'https://mcmw.abilitynet.org.uk/',
  wcag: 'https://www.w3.org/TR/WCAG22/',
  eass: 'https://www.equalityadvisoryservice.com/',
  ada: 'https://www.ada.gov/file-a-complaint/',
  report: '/accessibility/conformance.yaml',
} as const;

/** The day the statement was written and the day it was last reviewed against the site (ISO dates). */
const STATEMENT_DATES = { prepared: '2026-11-28', reviewed: '2026-11-28' } as const;

/** A character no message holds, put where a link goes so that the sentence can be split around it. */
const LINK = '\u{E000}';

/** A sentence's parts before and after the link `wrap` places in it. */
function aroundLink(wrap: (mark: string) => string): [string, string] {
  const [before = '', after = ''] = wrap(LINK).split(LINK);
  return [before, after];
}

/** An ISO day as the language writes it in full: "28 November 2026", "28 de noviembre de 2026". */
function longDay(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale('en-GB'), { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
}

/** Every sentence of the statement of `service` (run on `provider`), in the current language, in the order the page shows them. */
export function statementText(service: string, provider: string) {
  return {
    heading: m.statement_heading({ service }),
    scope: m.statement_scope({ service }),
    runBy: m.statement_run_by({ service, provider }),
    canDo: [m.statement_can_do_1(), m.statement_can_do_2(), m.statement_can_do_3(), m.statement_can_do_4()],
    abilityNet: m.statement_ability_net(),
    howAccessibleHeading: m.statement_how_accessible_heading(),
    howAccessible: m.statement_how_accessible(),
    knownIssues: [m.statement_known_issue_1(), m.statement_known_issue_2()],
    feedbackHeading: m.statement_feedback_heading(),
    feedback: m.statement_feedback(),
    contactMail: aroundLink((address) => m.statement_contact_mail({ address })),
    contactNoAddress: m.statement_contact_no_address(),
    reportingHeading: m.statement_reporting_heading(),
    reporting: aroundLink((address) => m.statement_reporting({ address })),
    reportingNoAddress: m.statement_reporting_no_address(),
    enforcementHeading: m.statement_enforcement_heading(),
    enforcement: m.statement_enforcement(),
    enforcers: [
      { name: m.statement_enforcer_eass(), href: STATEMENT_LINKS.eass },
      { name: m.statement_enforcer_ada(), href: STATEMENT_LINKS.ada },
    ],
    technicalHeading: m.statement_technical_heading(),
    technical: m.statement_technical(),
    statusHeading: m.statement_status_heading(),
    status: aroundLink((wcag) => m.statement_status({ wcag })),
    wcagLink: m.statement_wcag_link(),
    nonAccessibleHeading: m.statement_non_accessible_heading(),
    nonAccessible: m.statement_non_accessible(),
    nonCompliantHeading: m.statement_non_compliant_heading(),
    nonCompliant: [m.statement_non_compliant_1()],
    otherIssuesHeading: m.statement_other_issues_heading(),
    otherIssues: [m.statement_other_issue_1(), m.statement_other_issue_2()],
    notCheckedHeading: m.statement_not_checked_heading(),
    notChecked: [m.statement_not_checked_1(), m.statement_not_checked_2(), m.statement_not_checked_3()],
    thirdPartyHeading: m.statement_third_party_heading(),
    thirdParty: m.statement_third_party(),
    testingHeading: m.statement_testing_heading(),
    testing: m.statement_testing(),
    tests: [m.statement_test_1(), m.statement_test_2(), m.statement_test_3()],
    testingLimits: m.statement_testing_limits(),
    reportIntro: m.statement_report_intro(),
    reportLink: m.statement_report_link(),
    preparationHeading: m.statement_preparation_heading(),
    preparation: m.statement_preparation({ prepared: longDay(STATEMENT_DATES.prepared), reviewed: longDay(STATEMENT_DATES.reviewed) }),
  };
}
