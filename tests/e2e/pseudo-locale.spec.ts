import { test as withoutHydration, type Page } from '@playwright/test';
import { expect, SECRETS, test } from './fixtures.ts';
import { describeEscaped, escapedWords, nomineeTexts, siteBrand, type Escaped, type Sample } from '../support/pseudo-locale.ts';

// The demo survey in the pseudo-locale `en-XA`, which the test build adds (PSEUDO_LOCALE=1,
// src/i18n/pseudo.ts): every page and state of the voter's, with JavaScript and without, shows
// no plain word of four or more letters outside the ⟦ ⟧ markers in its text or in an aria-label,
// alt, placeholder or title. Each test walks its states in one page and fails once, at the end,
// listing every word that escaped and where.

const BALLOT = '/en-XA/top-doctors-demo/';

/** What the voter types: their own answers are exempt wherever they come back (a problems page, a write-in). */
const TYPED = { first: 'Ada', last: 'Quill', practice: 'Xu Li Clinic', license: 'MD-100200', writeIn: 'Dr. Zed Orr' };

/** Texts allowed as they are: the demo's nominees (names, and their places beside them), the voter's answers and the site's brand. */
const EXEMPT = [...nomineeTexts('surveys/top-doctors-demo'), ...Object.values(TYPED), siteBrand('surveys')];

/**
 * The page's texts as the voter meets them: the body's visible text (innerText, which leaves out
 * what is hidden), the window's title, and each aria-label, alt, placeholder and title of a shown
 * element. `<code>` (a receipt code, a command) and a text marked as in another language (the
 * language switch's "English", "Español") are left out.
 */
async function pageTexts(page: Page, state: string): Promise<Sample[]> {
  const { text, title, attributes } = await page.evaluate(() => {
    const lang = document.documentElement.lang;
    // innerText, not textContent: the text as laid out, without what is hidden.
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is checked
    let body = document.body.innerText;
    for (const element of document.body.querySelectorAll<HTMLElement>('code, [lang]')) {
      // biome-ignore lint/performance/useDomNodeTextContent: the same rendered text, to take out of the body's
      if (element.tagName === 'CODE' || element.lang !== lang) body = body.replace(element.innerText, ' ');
    }
    const found: Array<{ where: string; text: string }> = [];
    for (const element of document.body.querySelectorAll<HTMLElement>('[aria-label], [alt], [placeholder], [title]')) {
      if (!element.checkVisibility()) continue;
      const name = element.getAttribute('name');
      const id = element.id ? `#${element.id}` : name ? `[name=${name}]` : '';
      for (const attribute of ['aria-label', 'alt', 'placeholder', 'title']) {
        const value = element.getAttribute(attribute);
        if (value) found.push({ where: `<${element.tagName.toLowerCase()}${id}> ${attribute}`, text: value });
      }
    }
    return { text: body, title: document.title, attributes: found };
  });
  const at = `${new URL(page.url()).pathname} (${state})`;
  return [
    { where: `${at}, text`, text },
    { where: `${at}, window title`, text: title },
    ...attributes.map((attribute) => ({ where: `${at}, ${attribute.where}`, text: attribute.text })),
  ];
}

/** Collects what escaped on each state checked, for one failure at the end of the test. */
function crawl(page: Page) {
  const escaped: Escaped[] = [];
  return {
    /** Checks the page as it is; `answers` are other voters' answers it shows (their workplaces), exempt as the voter's own are. */
    check: async (state: string, answers: string[] = []) => escaped.push(...escapedWords(await pageTexts(page, state), [...EXEMPT, ...answers])),
    expectNone: () => expect(describeEscaped(escaped), 'plain words outside the pseudo-locale markers').toBe(''),
  };
}

/** The workplaces the workplace stats page names: the answers of every voter on this server, as the API gives them to the page. */
async function workplacesShown(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/survey/workplace-stats/top-doctors-demo');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { workplaces: Array<{ name: string }> }).workplaces.map((workplace) => workplace.name);
}

/** Fills the voter's required answers of the demo ballot, found by their names: the labels are pseudo-localized. */
async function fillVoter(page: Page, email: string): Promise<void> {
  await page.locator('[name="name-first"]').fill(TYPED.first);
  await page.locator('[name="name-last"]').fill(TYPED.last);
  await page.locator('[name="medical-credential"]').selectOption('MD');
  await page.locator('[name="medical-license"]').fill(TYPED.license);
  await page.locator('[name="email"]').fill(email);
  await page.locator('[name="medical-practice"]').fill(TYPED.practice);
}

/** A voter's address of its own for each run: ballots of earlier runs are on the same server. */
const freshEmail = () => `xa-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.org`;

test('with JavaScript: the ballot, a search, the tiles, a write-in, the errors, the thank-you page, the receipt, the stats, a personal and an invalid link, expiry', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { check, expectNone } = crawl(page);
  await page.goto(BALLOT);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
  await check('ballot');

  const slot = page.locator('[name="nominations[Heart and Lungs][Cardiology][1]"]');
  await slot.fill('esposito');
  const suggestion = page.getByRole('listbox').getByRole('option').first();
  await expect(suggestion).toBeVisible();
  await check('a nominee search');
  await suggestion.click();

  // The reservation sections load their tiles as they come near the screen.
  for (const section of ['#field-faces-title', '#field-asktheexpert-title']) await page.locator(section).scrollIntoViewIfNeeded();
  await expect(page.locator('[role="radiogroup"][aria-busy="false"]')).toHaveCount(2);
  await check('tiles');

  await page.locator('#add-write-in').click();
  await page.locator('[name="writeins[0][name]"]').fill(TYPED.writeIn);
  await check('a write-in');

  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('alert').filter({ has: page.getByRole('heading') })).toBeVisible();
  await check('errors');

  await fillVoter(page, freshEmail());
  await page.locator('[name="writeins[0][category]"]').selectOption({ index: 1 });
  await page.locator('[name="affirm"]').check();
  await page.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(/\/en-XA\/top-doctors-demo\/thankyou$/);
  await expect(page.locator('[data-receipt-code]')).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const receipt = (await page.locator('[data-receipt-code]').textContent())!;
  await check('thank-you');

  await page.locator('a[href*="receipt?code="]').click();
  await expect(page).toHaveURL(/\/en-XA\/top-doctors-demo\/receipt\?code=/);
  await expect(page.locator('[data-answer]')).toContainText(receipt);
  await check('receipt');

  for (const stats of ['stats', 'workplace-stats']) {
    await page.goto(`${BALLOT}${stats}`);
    await expect(page.locator('[data-part="loading"]')).toBeHidden();
    await check(stats, stats === 'workplace-stats' ? await workplacesShown(page) : []);
  }

  await page.goto(`${BALLOT}accessibility`);
  await check('accessibility statement');

  await page.goto(`${BALLOT}${SECRETS.evelyn}`);
  await expect(page.locator('[name="name-first"]')).toHaveValue('Evelyn');
  await check('a personal link');

  await page.goto(`${BALLOT}not-a-secret-of-anyone`);
  await expect(page.locator('#survey-root')).toHaveAttribute('data-link-state', 'invalid');
  await check('an invalid link');

  await page.clock.setFixedTime(new Date('2100-01-01T00:00:00Z'));
  await page.goto(BALLOT);
  await expect(page.locator('#survey-root')).toHaveAttribute('data-link-state', 'expired');
  await check('expired');
  expectNone();
});

// Playwright's own test: the fixtures' navigation waits for the islands, which need JavaScript.
withoutHydration.describe('without JavaScript', () => {
  withoutHydration.use({ javaScriptEnabled: false });

  withoutHydration('the ballot, the problems page, the thank-you page, the receipt check, the stats and a personal link', async ({ page }) => {
    const { check, expectNone } = crawl(page);
    await page.goto(BALLOT);
    await check('ballot');

    await page.locator('[name="name-first"]').fill(TYPED.first);
    await page.locator('button[type="submit"]').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
    await expect(page.getByRole('listitem').first()).toBeVisible();
    await check('the problems page');

    await page.goto(BALLOT);
    await fillVoter(page, freshEmail());
    await page.locator('[name="nominations[Heart and Lungs][Cardiology][1]"]').fill(TYPED.writeIn);
    await page.locator('[name="affirm"]').check();
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/en-XA\/top-doctors-demo\/thankyou$/);
    await check('thank-you');

    await page.goto(`${BALLOT}receipt`);
    await check('receipt');
    await page.locator('[name="code"]').fill('ZZZZ-ZZZZ-ZZZZ');
    await page.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/api\/survey\/receipt\//);
    await check('the receipt check');

    for (const stats of ['stats', 'workplace-stats', 'accessibility', SECRETS.evelyn]) {
      await page.goto(`${BALLOT}${stats}`);
      await check(stats === SECRETS.evelyn ? 'a personal link' : stats);
    }
    expectNone();
  });
});
