import type { Page, TestInfo } from '@playwright/test';
import { expect, expectNoAxeViolations, SECRETS, test } from './fixtures.ts';

// The accessibility statement: linked from every page's footer (its survey's, or the site's outside
// every survey), readable and axe clean on a phone and a laptop, with the publication's address.

/** Every page a voter can open, by the statement its footer leads to. */
const PAGES: Array<[string, string]> = [
  ['/top-doctors-demo/', '/top-doctors-demo/accessibility/'],
  [`/top-doctors-demo/${SECRETS.evelyn}`, '/top-doctors-demo/accessibility/'],
  ['/top-doctors-demo/thankyou', '/top-doctors-demo/accessibility/'],
  ['/top-doctors-demo/receipt', '/top-doctors-demo/accessibility/'],
  ['/top-doctors-demo/stats', '/top-doctors-demo/accessibility/'],
  ['/top-doctors-demo/workplace-stats', '/top-doctors-demo/accessibility/'],
  ['/members-choice/', '/members-choice/accessibility/'],
  ['/best-dentists-2024/', '/best-dentists-2024/accessibility/'],
  ['/verified-vote/', '/verified-vote/accessibility/'],
  ['/no-such-survey/', '/accessibility/'],
  ['/accessibility/', '/accessibility/'],
];

test('every page’s footer links to the accessibility statement, its survey’s or the site’s', async ({ page }) => {
  for (const [pathname, statement] of PAGES) {
    await page.goto(pathname);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility statement' }), pathname).toHaveAttribute('href', statement);
  }
  await page.getByRole('contentinfo').getByRole('link', { name: 'Accessibility statement' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Accessibility statement for Top Doctors 2027' })).toBeVisible();
});

/** The statement at a width: nothing wider than the screen, axe clean; a full-page screenshot kept with the test's results. */
async function atWidth(page: Page, info: TestInfo, width: number, name: string): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await expectNoAxeViolations(page);
  const file = info.outputPath(`${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await info.attach(`${name} at ${width} px`, { path: file, contentType: 'image/png' });
}

test('a survey’s statement follows GOV.UK’s sample, gives its publication’s address, and reads on a phone and a laptop', async ({ page }, info) => {
  await page.goto('/top-doctors-demo/accessibility/');
  await expect(page).toHaveTitle('Accessibility statement · Top Doctors 2027');
  const headings = await page.getByRole('main').getByRole('heading').allTextContents();
  expect(headings).toEqual([
    'Accessibility statement for Top Doctors 2027',
    'How accessible this website is',
    'What to do if you cannot use parts of this website',
    'Reporting accessibility problems with this website',
    'Enforcement procedure',
    'Technical information about this website’s accessibility',
    'Compliance status',
    'Non-accessible content',
    'Non-compliance with the accessibility regulations',
    'Other known problems',
    'What we have not yet checked',
    'How we tested this website',
    'Preparation of this accessibility statement',
  ]);
  // The survey's mail.reply_to, bare, as a mail link.
  await expect(page.getByRole('link', { name: 'votes@metrohealth.example' })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'votes@metrohealth.example' }).first()).toHaveAttribute('href', 'mailto:votes@metrohealth.example');
  await expect(page.getByText('This statement was prepared on 28 November 2026.')).toBeVisible();
  for (const width of [360, 1280]) await atWidth(page, info, width, 'survey-statement');
});

test('a survey without a reply address says whom to ask instead, and the one with a translation widget says it is not covered', async ({ page }) => {
  await page.goto('/members-choice/accessibility/');
  await expect(page.getByText('reply to the mail that brought you your link, or contact the publication that runs this survey')).toBeVisible();
  await expect(page.getByRole('link', { name: /^mailto:|@/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Content that’s not within the scope of this statement' })).toBeVisible();
  await page.goto('/top-doctors-demo/accessibility/');
  await expect(page.getByRole('heading', { name: 'Content that’s not within the scope of this statement' })).toHaveCount(0);
});

test('the site’s statement speaks for the default survey, and links the conformance report, served as YAML', async ({ page, request }, info) => {
  await page.goto('/accessibility/');
  await expect(page.getByRole('heading', { level: 2, name: 'Accessibility statement for Top Doctors 2027' })).toBeVisible();
  const report = page.getByRole('link', { name: 'the accessibility conformance report (OpenACR, YAML)' });
  await expect(report).toHaveAttribute('href', '/accessibility/conformance.yaml');
  const response = await request.get('/accessibility/conformance.yaml');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/yaml/);
  expect(await response.text()).toContain('catalog: 2.5-edition-wcag-2.2-en');
  for (const width of [360, 1280]) await atWidth(page, info, width, 'site-statement');
});

test('a Spanish page’s footer leads to the statement wholly in Spanish, which reads on a phone and a laptop; the ballot names what its personal fields hold', async ({
  page,
}, info) => {
  await page.goto('/es/top-doctors-demo/');
  // WCAG 1.3.5: the demo's survey.yaml gives each personal field its autofill token.
  for (const [id, token] of Object.entries({
    'name-first': 'given-name',
    'name-middle': 'additional-name',
    'name-last': 'family-name',
    email: 'email',
    phone: 'tel',
  })) {
    await expect(page.locator(`#field-${id}`)).toHaveAttribute('autocomplete', token);
  }
  await page.getByRole('contentinfo').getByRole('link', { name: 'Declaración de accesibilidad' }).click();
  await expect(page).toHaveURL(/\/es\/top-doctors-demo\/accessibility\/?$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page).toHaveTitle('Declaración de accesibilidad · Top Doctors 2027');
  await expect(page.getByRole('heading', { level: 2, name: 'Declaración de accesibilidad de Top Doctors 2027' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Procedimiento de aplicación' })).toBeVisible();
  await expect(page.getByText('Esta declaración se preparó el 28 de noviembre de 2026.')).toBeVisible();
  // No part of the page is marked as being in another language.
  await expect(page.locator('main [lang]')).toHaveCount(0);
  for (const width of [360, 1280]) await atWidth(page, info, width, 'spanish-statement');
});
