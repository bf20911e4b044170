import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { nextFrame } from './waits.ts';
import { fillVoter, voter } from './ballot-helpers.ts';

/** The demo survey's form-data names: none of them may reach a voter's eyes. */
const FIELD_NAMES = [
  'name-first',
  'name-last',
  'medical-credential',
  'medical-license',
  'medical-practice',
  'email',
  'affirm',
  'languages',
  'headshot',
  'faces',
  'asktheexpert',
];

test.describe('errors in the voter’s words', () => {
  test('an empty submit shows "There is a problem" with a link per problem, in labels, and focus moves to it', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await page.getByRole('button', { name: 'Submit' }).click();
    const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'There is a problem' }) });
    await expect(summary).toBeVisible();
    await expect(summary).toBeFocused();
    const links = summary.getByRole('link');
    const texts = await links.allInnerTexts();
    expect(texts).toEqual([
      'First name is required.',
      'Last name is required.',
      'Medical credential is required.',
      'Enter your license number as it is written on your license, such as MD-123456.',
      'Email is required.',
      'Medical practice is required.',
      'Tick “I Affirm” to confirm the statements above.',
    ]);
    const everyMessage = [...texts, ...(await page.locator('.field-error').allInnerTexts())];
    for (const message of everyMessage) for (const name of FIELD_NAMES) expect(message).not.toContain(name);
    await expectNoAxeViolations(page);

    await links.filter({ hasText: 'Medical credential is required.' }).click();
    await expect(page.getByRole('combobox', { name: 'Medical credential' })).toBeFocused();
    await links.filter({ hasText: 'Tick “I Affirm”' }).click();
    await expect(page.getByRole('checkbox', { name: 'I Affirm' })).toBeFocused();
    await links.first().click();
    const first = page.getByRole('textbox', { name: 'First name' });
    await expect(first).toBeFocused();
    await expect(first).toBeInViewport();
    await expect(first).toHaveAccessibleDescription('First name is required.');
  });

  test('without the summary’s code (connection lost), a failed submit still takes the voter to the first problem', async ({ page }) => {
    await page.route('**/_astro/ErrorSummary*.js', (route) => route.abort('internetdisconnected'));
    await page.goto('/top-doctors-demo/');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('textbox', { name: 'First name' })).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription('Email is required.');
  });

  test('a fixed problem leaves the summary and its field at once', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await page.getByRole('button', { name: 'Submit' }).click();
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.fill('ada@example.org');
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#error-summary').getByText('Email is required.')).toHaveCount(0);
  });

  test('a survey’s own message replaces the default', async ({ page }) => {
    await page.goto('/members-choice/demo');
    await page.getByRole('button', { name: 'Submit' }).click();
    const message = 'Enter your name as it appears on your membership card.';
    await expect(page.locator('#error-summary').getByRole('link', { name: message })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Member name' })).toHaveAccessibleDescription(message);
  });
});

test.describe('indicators that tell the truth', () => {
  test('nothing is marked wrong before the voter acts', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
    await expect(page.locator('.is-danger')).toHaveCount(0);
    await expect(page.getByText('(needs attention)')).toHaveCount(0);
    const credential = page.getByRole('combobox', { name: 'Medical credential' });
    const border = await credential.evaluate((el) => getComputedStyle(el).borderColor);
    expect(border).not.toBe('rgb(179, 38, 30)');
  });

  test('the check appears only on a valid value, once it is checked', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    const emailField = page.locator('.field-email');
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.fill('ada@');
    await expect(emailField.getByText('(done)')).toHaveCount(0);
    await email.blur();
    await expect(emailField.getByText('(needs attention)')).toBeAttached();
    await expect(emailField.getByText('(done)')).toHaveCount(0);
    await email.fill('ada@example.org');
    await expect(emailField.getByText('(done)')).toBeAttached();
  });

  test('"Other" ticked without its text stops the ballot and points at the text', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await fillVoter(page, voter('other'));
    await page.getByRole('checkbox', { name: 'Other' }).check();
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    const message = 'Languages you speak with patients: you ticked “Other”, so say what it is.';
    await page.locator('#error-summary').getByRole('link', { name: message }).click();
    const other = page.getByRole('textbox', { name: 'Other, please specify' });
    await expect(other).toBeFocused();
    await expect(other).toHaveAccessibleDescription(message);
    await expect(page.locator('.field-checkbox')).not.toHaveClass(/is-success/);
    await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
    await other.fill('Greek');
    await expect(other).not.toHaveAttribute('aria-invalid', 'true');
  });

  test('a tap on the next choice right after leaving an invalid field lands', async ({ page }) => {
    for (let run = 0; run < 6; run++) {
      await page.goto('/top-doctors-demo/');
      const email = page.getByRole('textbox', { name: 'Email' });
      await email.fill('not-an-address');
      const yes = page.getByRole('radio', { name: 'Yes' });
      await yes.scrollIntoViewIfNeeded();
      const box = (await yes.boundingBox())!;
      // One press, as a finger does: the field is left on the way down, and the page draws a frame
      // with the press held (a message that moved the choice would show then), then the choice is taken on the way up.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await expect(email).not.toBeFocused();
      await nextFrame(page);
      await page.mouse.up();
      await expect(yes).toBeChecked();
      await expect(page.getByText('Email is not valid. Enter an address like name@example.org.')).toBeVisible();
    }
  });
});
