/**
 * Every word of the accessibility statement, in English, kept apart from its markup so that the
 * whole text moves into a message catalogue as it stands. `{name}` marks a value filled in by
 * `fill()`; a string ending in `Link` is the text of a link, `Href` its address.
 */
export const STATEMENT_TEXT = {
  pageTitle: 'Accessibility statement',
  heading: 'Accessibility statement for {service}',
  scope:
    'This statement applies to the pages of {service} on this website: the ballot, and the thank-you, receipt, participation and results pages that follow it.',
  runBy: '{service} runs on {provider}. We want as many people as possible to be able to use it. For example, you should be able to:',
  canDo: [
    'fill in and send the ballot with a keyboard alone',
    'read the ballot on a phone 360 pixels wide without scrolling sideways',
    'send the public ballot with JavaScript switched off',
    'skip straight to the main content from the top of every page',
  ],
  abilityNet: 'AbilityNet has advice on making your device easier to use if you have a disability.',
  abilityNetHref: 'https://mcmw.abilitynet.org.uk/',

  howAccessibleHeading: 'How accessible this website is',
  howAccessible: 'We know some parts of this website are not fully accessible, or have not yet been checked by a person:',
  knownIssues: [
    'your browser cannot fill in your name and phone number on the ballot for you',
    'a personal link, the address sent to you by mail, needs JavaScript to open your ballot',
    'no one has yet used the pages with a screen reader or speech recognition software, so we cannot promise they work well with them',
  ],

  feedbackHeading: 'What to do if you cannot use parts of this website',
  feedback:
    'If you need the ballot in another form, such as on paper, in large print or by phone, or if a page does not work for you, tell us what you need and how we can reach you:',
  contactMail: 'write to {address}',
  contactNoAddress: 'reply to the mail that brought you your link, or contact the publication that runs this survey',

  reportingHeading: 'Reporting accessibility problems with this website',
  reporting:
    'We are always looking to improve the accessibility of this survey. If you find a problem not listed on this page, or think we are not meeting accessibility requirements, write to {address}.',
  reportingNoAddress:
    'We are always looking to improve the accessibility of this survey. If you find a problem not listed on this page, or think we are not meeting accessibility requirements, contact the publication that runs this survey.',

  enforcementHeading: 'Enforcement procedure',
  enforcement:
    'Accessibility law differs from country to country. If you are not happy with how we respond to your complaint, you can contact the body that enforces it where you live, for example:',
  enforcers: [
    { name: 'the Equality Advisory and Support Service (EASS) in Great Britain', href: 'https://www.equalityadvisoryservice.com/' },
    {
      name: 'the Civil Rights Division of the U.S. Department of Justice, under the Americans with Disabilities Act',
      href: 'https://www.ada.gov/file-a-complaint/',
    },
  ],

  technicalHeading: 'Technical information about this website’s accessibility',
  technical: 'We want this website to meet the Web Content Accessibility Guidelines (WCAG) version 2.2, level AA.',
  statusHeading: 'Compliance status',
  status:
    'This website is partially compliant with the {wcag} AA standard, due to the non-compliance listed below. Most of it has been checked by automated tests only, not yet by a person.',
  wcagLink: 'Web Content Accessibility Guidelines version 2.2',
  wcagHref: 'https://www.w3.org/TR/WCAG22/',

  nonAccessibleHeading: 'Non-accessible content',
  nonAccessible: 'The content listed below is not accessible, or not known to be, for the following reasons.',
  nonCompliantHeading: 'Non-compliance with the accessibility regulations',
  nonCompliant: [
    'The ballot’s name and phone fields do not say what they hold, so a browser cannot fill them in (WCAG 1.3.5, Identify Input Purpose). The email field does.',
  ],
  otherIssuesHeading: 'Other known problems',
  otherIssues: [
    'A personal link opens the ballot only with JavaScript: the page reads your personal code in the browser. Without JavaScript the page says so; the public ballot, where a survey has one, works without it.',
    'Some surveys verify a voter with a code sent by mail. We have not checked how long the code lasts against the time a voter may need (WCAG 2.2.1).',
  ],
  notCheckedHeading: 'What we have not yet checked',
  notChecked: [
    'The pages have not been used with a screen reader (such as JAWS, NVDA or VoiceOver) or with speech recognition software.',
    'Zoom to 400%, larger text spacing and a high-contrast mode have not been tried by a person.',
    'A survey’s published results page has not been checked by a person.',
  ],
  thirdPartyHeading: 'Content that’s not within the scope of this statement',
  thirdParty:
    'A survey may offer Google’s translation widget. Its menu and the pages it translates come from Google, and this statement does not cover them. The survey’s own texts are not machine-translated unless you choose a language in it.',

  testingHeading: 'How we tested this website',
  testing: 'The software’s automated tests, run on every change to it, check:',
  tests: [
    'axe-core, an automated accessibility checker, runs in a browser on every page a voter can reach (the ballot by a public and a personal link, with its mistakes shown, an invalid or expired link, the thank-you, receipt, participation, results and not-found pages) 1280 pixels wide, on some of them 360 pixels wide too, and on this statement at both widths. It finds no failure.',
    'The W3C Nu HTML Checker checks every page the build writes. It finds no error.',
    'Tests in a browser fill in and send the ballot with the keyboard alone and measure that the ballot fits a phone 360 pixels wide; a test sends the ballot’s form as a browser without JavaScript does.',
  ],
  testingLimits:
    'Automated checks find only some kinds of accessibility problem. No person has yet checked these pages with a keyboard, a screen reader or speech recognition software; until that is done, we do not claim that any criterion is fully met.',
  reportIntro: 'Our conformance report lists every WCAG 2.2 level A and AA criterion, what was checked for each and how:',
  reportLink: 'the accessibility conformance report (OpenACR, YAML)',

  preparationHeading: 'Preparation of this accessibility statement',
  preparation: 'This statement was prepared on {prepared}. It was last reviewed on {reviewed}.',
} as const;

/** The day the statement was written and the day it was last reviewed against the site (ISO dates). */
export const STATEMENT_DATES = { prepared: '2026-11-28', reviewed: '2026-11-28' } as const;

/** A text with its `{name}` marks replaced by the values given; a mark with no value is left as it is, for the test to see. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (mark, name: string) => values[name] ?? mark);
}
