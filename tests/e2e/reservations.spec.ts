import type { Browser, Locator, Page } from '@playwright/test';
import { expect, NOW_HEADER, test } from './fresh-server.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { fillVoter, voter } from './ballot-helpers.ts';
import { hydratingNavigation } from './waits.ts';

// Every test here runs on a server of its own (fresh-server.ts): claimed Faces tiles stay
// claimed for good, and the demo survey has only six.

const FACES = 'Reserve Your Faces Specialty';
const EXPERTS = 'Reserve Your Expert Question';

/** A reservation section's tiles, once its island has loaded: it loads as it comes near the screen. */
async function section(page: Page, name: string): Promise<Locator> {
  const tiles = page.getByRole('radiogroup', { name });
  await tiles.scrollIntoViewIfNeeded();
  // Astro drops `ssr` from an island's element once it has hydrated.
  await expect(page.locator('astro-island[ssr]', { has: tiles })).toHaveCount(0);
  return tiles;
}

/** The card of a tile, where its corner banner shows. */
const card = (tiles: Locator, name: string) => tiles.locator('label', { has: tiles.page().getByRole('radio', { name }) });

/** Fills the rest of a valid demo ballot: the voter, one write-in, the affirmation. */
async function fillBallot(page: Page, tag: string): Promise<void> {
  await fillVoter(page, voter(tag));
  await page.getByRole('button', { name: 'Add Write-In' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Dr. ${tag} Write-In`);
  await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Pediatrics' });
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
}

/** A new visitor in a browser of their own; with `now`, every survey API call carries that server time. */
async function visitor(browser: Browser, baseURL: string, now?: () => string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = hydratingNavigation(await context.newPage());
  if (now) await page.route('**/api/survey**', (route) => route.continue({ headers: { ...route.request().headers(), [NOW_HEADER]: now() } }));
  return page;
}

test.describe('Faces and Experts reservations', () => {
  test('Faces: taken tiles are GONE and disabled, the selected one RESERVED, the custom field clears it', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    const tiles = await section(page, FACES);
    await expect(page.getByRole('heading', { name: FACES })).toBeVisible();
    await expect(tiles.getByRole('radio')).toHaveCount(6);
    await expect(tiles.getByRole('radio', { name: 'THE FACE OF Orthopedic Surgery' })).toBeDisabled();
    await expect(card(tiles, 'THE FACE OF Orthopedic Surgery')).toContainText('GONE');
    await expect(tiles.getByText('RESERVED')).toHaveCount(0);
    await expect(page.getByText('Dr. Amara Okafor, THE FACE OF Cardiology 2026')).toBeVisible();

    const cardiology = tiles.getByRole('radio', { name: 'THE FACE OF Cardiology' });
    await cardiology.check();
    await expect(cardiology).toBeChecked();
    await expect(card(tiles, 'THE FACE OF Cardiology')).toContainText('RESERVED');
    await tiles.getByRole('radio', { name: 'THE FACE OF Pediatrics' }).check();
    await expect(cardiology).not.toBeChecked();
    await expect(tiles.getByText('RESERVED')).toHaveCount(1);
    await expect(card(tiles, 'THE FACE OF Pediatrics')).toContainText('RESERVED');
    await expectNoAxeViolations(page);

    const custom = page.getByRole('textbox', { name: 'Or name your own specialty' });
    await expect(custom).toHaveAttribute('placeholder', 'THE FACE OF...');
    await custom.click();
    await expect(tiles.getByRole('radio', { checked: true })).toHaveCount(0);
    await expect(tiles.getByText('RESERVED')).toHaveCount(0);
    await custom.fill('Geriatrics');
    await tiles.getByRole('radio', { name: 'THE FACE OF Dermatology' }).check();
    await expect(custom).toHaveValue('');
  });

  test('Experts: the same behaviour, the past experts, and the five days a selection is held', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    const tiles = await section(page, EXPERTS);
    await expect(page.getByText('A selection is reserved for you for five days.')).toBeVisible();
    await expect(page.getByText('Dr. Hannah Weiss, Neurology')).toBeVisible();
    await expect(tiles.getByRole('radio')).toHaveCount(4);
    const question = tiles.getByRole('radio', { name: 'How much sleep do teenagers really need?' });
    await question.check();
    await expect(card(tiles, 'How much sleep do teenagers really need?')).toContainText('RESERVED');
    await page.getByRole('textbox', { name: 'Or write your own expert question' }).click();
    await expect(question).not.toBeChecked();
    await expectNoAxeViolations(page);
  });

  test('tiles are one radio group for the keyboard: the arrows move the selection past GONE tiles', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    const tiles = await section(page, FACES);
    await tiles.getByRole('radio', { name: 'THE FACE OF Family Medicine' }).check();
    await page.keyboard.press('ArrowRight');
    const pediatrics = tiles.getByRole('radio', { name: 'THE FACE OF Pediatrics' });
    await expect(pediatrics).toBeChecked();
    await expect(pediatrics).toBeFocused();
    await expect(card(tiles, 'THE FACE OF Pediatrics')).toContainText('RESERVED');
    // One stop for Tab: from the group straight on to the custom field.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Or name your own specialty' })).toBeFocused();
    await expect(pediatrics).toBeChecked();
  });

  test('a submitted ballot reserves its tile, and the next visitor finds it GONE', async ({ page, browser, baseURL }) => {
    await page.goto('/top-doctors-demo/');
    const tiles = await section(page, FACES);
    await tiles.getByRole('radio', { name: 'THE FACE OF Sports Medicine' }).check();
    await section(page, EXPERTS);
    await page.getByRole('textbox', { name: 'Or write your own expert question' }).fill('Do standing desks help my back?');
    await fillBallot(page, 'gone');
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect(page).toHaveURL(/\/top-doctors-demo\/thankyou$/);
    await expect(page.getByText('Your ballot has been received.')).toBeVisible();
    await expect(page.getByText('THE FACE OF Sports Medicine is reserved for you.')).toBeVisible();
    await expect(page.getByText('Your own expert question, “Do standing desks help my back?”, was received with your ballot.')).toBeVisible();
    await expectNoAxeViolations(page);

    const next = await visitor(browser, baseURL!);
    await next.goto('/top-doctors-demo/');
    const nextTiles = await section(next, FACES);
    await expect(nextTiles.getByRole('radio', { name: 'THE FACE OF Sports Medicine' })).toBeDisabled();
    await expect(card(nextTiles, 'THE FACE OF Sports Medicine')).toContainText('GONE');
    await expect(nextTiles.getByRole('radio', { name: 'THE FACE OF Cardiology' })).toBeEnabled();
  });

  test('two voters racing for one tile: one gets it, the other’s thank-you page says it was taken', async ({ browser, baseURL }) => {
    const voters = [await visitor(browser, baseURL!), await visitor(browser, baseURL!)];
    for (const [i, page] of voters.entries()) {
      await page.goto('/top-doctors-demo/');
      const tiles = await section(page, FACES);
      await tiles.getByRole('radio', { name: 'THE FACE OF Family Medicine' }).check();
      await fillBallot(page, `race${i}`);
    }
    await Promise.all(voters.map((page) => page.getByRole('button', { name: 'Submit' }).click()));

    const reserved = 'THE FACE OF Family Medicine is reserved for you.';
    const lost =
      'THE FACE OF Family Medicine was taken by another ballot that arrived before yours, so it could not be reserved for you. Your ballot was received and counts all the same.';
    for (const page of voters) {
      await expect(page.getByText('Your ballot has been received.')).toBeVisible();
      await expect(page.getByText(reserved).or(page.getByText(lost))).toBeVisible();
    }
    const got = await Promise.all(voters.map((page) => page.getByText(reserved).isVisible()));
    expect(got.filter(Boolean)).toHaveLength(1);
    await expectNoAxeViolations(voters[got.indexOf(false)]);
  });

  test('an expert question is held for five days, then free again', async ({ browser, baseURL }) => {
    const start = Date.parse('2031-03-01T12:00:00Z');
    const day = 24 * 60 * 60 * 1000;
    const question = 'When should a headache worry me?';
    let now = start;
    const at = () => new Date(now).toISOString();

    const first = await visitor(browser, baseURL!, at);
    await first.goto('/top-doctors-demo/');
    await (await section(first, EXPERTS)).getByRole('radio', { name: question }).check();
    await fillBallot(first, 'expert1');
    await first.getByRole('button', { name: 'Submit' }).click();
    await expect(first.getByText(`The expert question “${question}” is reserved for you for five days.`)).toBeVisible();

    const second = await visitor(browser, baseURL!, at);
    now = start + 4 * day;
    await second.goto('/top-doctors-demo/');
    let tiles = await section(second, EXPERTS);
    await expect(tiles.getByRole('radio', { name: question })).toBeDisabled();
    await expect(card(tiles, question)).toContainText('GONE');

    now = start + 5 * day + 60_000;
    await second.reload();
    tiles = await section(second, EXPERTS);
    await expect(tiles.getByRole('radio', { name: question })).toBeEnabled();
    await tiles.getByRole('radio', { name: question }).check();
    await fillBallot(second, 'expert2');
    await second.getByRole('button', { name: 'Submit' }).click();
    await expect(second.getByText(`The expert question “${question}” is reserved for you for five days.`)).toBeVisible();
  });

  test('a ballot kept on the device and sent later still tells what became of its reservation', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await (await section(page, FACES)).getByRole('radio', { name: 'THE FACE OF Dermatology' }).check();
    await fillBallot(page, 'late');
    let down = true;
    await page.route('**/api/survey?*', (route) => (down ? route.abort('connectionrefused') : route.fallback()));
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Your ballot is saved on this device and will be sent when the connection returns.')).toBeVisible();
    await expect(page.getByText('THE FACE OF Dermatology is reserved for you.')).toHaveCount(0);
    down = false;
    await expect(page.getByText('Your ballot has been received.')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('THE FACE OF Dermatology is reserved for you.')).toBeVisible();
  });

  test('when the look-up fails, the section says so and offers a retry', async ({ page }) => {
    let down = true;
    await page.route('**/api/survey/faces/**', (route) => (down ? route.fulfill({ status: 503, body: 'down' }) : route.fallback()));
    await page.goto('/top-doctors-demo/');
    await page.getByRole('heading', { name: FACES }).scrollIntoViewIfNeeded();
    await expect(page.getByText('The reservations could not be loaded.')).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: FACES })).toHaveCount(0);
    await expectNoAxeViolations(page);

    down = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    const tiles = page.getByRole('radiogroup', { name: FACES });
    await expect(tiles.getByRole('radio', { name: 'THE FACE OF Orthopedic Surgery' })).toBeDisabled();
    await expect(tiles.getByRole('radio', { name: 'THE FACE OF Cardiology' })).toBeEnabled();
    await expect(page.getByText('The reservations could not be loaded.')).toHaveCount(0);
  });

  test('when the look-up fails, the rest of the ballot still goes in', async ({ page }) => {
    await page.route('**/api/survey/{faces,experts}/**', (route) => route.abort('connectionrefused'));
    await page.goto('/top-doctors-demo/');
    await page.getByRole('heading', { name: EXPERTS }).scrollIntoViewIfNeeded();
    await expect(page.getByText('The reservations could not be loaded.')).toHaveCount(2);
    await page.getByRole('textbox', { name: 'Or name your own specialty' }).fill('Geriatrics');
    await fillBallot(page, 'lookup-down');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText('Your ballot has been received.')).toBeVisible();
    await expect(page.getByText('Your own specialty, “Geriatrics”, was received with your ballot.')).toBeVisible();
  });

  test('a custom text that is too long is marked, and Submit takes the voter to it', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await section(page, FACES);
    const custom = page.getByRole('textbox', { name: 'Or name your own specialty' });
    await custom.fill('Geriatrics '.repeat(30));
    await custom.blur();
    await expect(custom).toHaveAttribute('aria-invalid', 'true');
    const message = 'Reserve Your Faces Specialty: your own text must be 300 characters or fewer.';
    await expect(custom).toHaveAccessibleDescription(message);
    await fillBallot(page, 'too-long');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#error-summary').getByRole('link', { name: message }).click();
    await expect(custom).toBeFocused();
    await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
    await expectNoAxeViolations(page);
  });

  test('the sections fit a 360 px wide phone without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/top-doctors-demo/');
    await (await section(page, FACES)).getByRole('radio', { name: 'THE FACE OF Cardiology' }).check();
    await section(page, EXPERTS);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
