import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { fillVoter, nominate, postDemoBallot, voter, workplaceBallots } from './ballot-helpers.ts';
import { keptCount } from './kept-ballot-helpers.ts';
import { laterRequest } from './waits.ts';

test.describe('the ballot', () => {
  test('a voter fills the whole demo ballot, submits it, and it is counted', async ({ page, request, baseURL }) => {
    const who = voter('whole');
    await postDemoBallot(request, baseURL!, who.practice);
    await postDemoBallot(request, baseURL!, who.practice);
    expect(await workplaceBallots(request, who.practice)).toBe(0);

    await page.goto('/top-doctors-demo/');
    await fillVoter(page, who);
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByRole('radio', { name: 'Academic' }).check();
    await page.getByRole('checkbox', { name: 'Spanish' }).check();
    await nominate(page, 'Cardiology, First Nomination', 'jose alv', 'José Álvarez-Ruiz');
    await page.getByRole('button', { name: 'Add Write-In' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Dr. Imani Achebe');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Neurosurgery' });
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect(page).toHaveURL(/\/top-doctors-demo\/thankyou$/);
    await expect(page.getByText('Your ballot has been received.')).toBeVisible();
    expect(await workplaceBallots(request, who.practice)).toBe(3);
  });

  test('shows each field’s indicator: required, error, done', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    const emailField = page.locator('.field-email');
    await expect(emailField.getByText('(required)')).toBeAttached();
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.fill('not-an-address');
    await email.blur();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Email is not valid. Enter an address like name@example.org.')).toBeVisible();
    await expect(email).toHaveAccessibleDescription('Email is not valid. Enter an address like name@example.org.');
    await expect(emailField.getByText('(needs attention)')).toBeAttached();
    await email.fill('ada@example.org');
    await email.blur();
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(emailField.getByText('(done)')).toBeAttached();
    await expect(page.getByText('Email is not valid. Enter an address like name@example.org.')).toHaveCount(0);

    // A required select without a value is marked required (not wrong before it is touched); with one, success.
    const credential = page.locator('.field-select').filter({ hasText: 'Medical credential' });
    await expect(credential).toHaveClass(/is-required/);
    await expect(credential.getByRole('option', { name: 'Select One' })).toBeDisabled();
    await credential.getByRole('combobox').selectOption('DO');
    await expect(credential).toHaveClass(/is-success/);
  });

  test('a choice tapped straight after typing in a field is taken', async ({ page }) => {
    // Eight page loads and fills in one test: three times the usual time, so that a busy machine does not fail it.
    test.slow();
    // Leaving a field must not flash a stale error that moves the choice from under the pointer.
    for (let run = 0; run < 8; run++) {
      await page.goto('/top-doctors-demo/');
      await fillVoter(page, voter('tap'));
      await page.getByRole('radio', { name: 'Yes' }).click();
      await expect(page.getByRole('radio', { name: 'Yes' })).toBeChecked();
    }
  });

  test('renders every field type', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await expect(page.getByText('They are never published with your name.')).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: 'Are you board certified?' })).toBeVisible();
    await expect(page.getByRole('radiogroup', { name: 'Practice setting' }).getByRole('radio')).toHaveCount(4);
    await expect(page.getByRole('textbox', { name: 'A note for our editors' })).toBeVisible();

    const slider = page.getByRole('slider', { name: 'Years in practice' });
    await expect(slider).toHaveAttribute('min', '1');
    await expect(slider).toHaveAttribute('max', '5');
    await slider.focus();
    await page.keyboard.press('End');
    await expect(slider).toHaveAttribute('aria-valuetext', 'More than 30');
    await page.keyboard.press('Home');
    await expect(slider).toHaveAttribute('aria-valuetext', '0-5');

    await expect(page.getByRole('textbox', { name: 'Other, please specify' })).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Other' }).check();
    const other = page.getByRole('textbox', { name: 'Other, please specify' });
    await expect(other).toHaveAttribute('name', 'languages[other-answer]');
    await page.getByRole('checkbox', { name: 'Other' }).uncheck();
    await expect(other).toHaveCount(0);

    await expect(page.getByText('No file uploaded')).toBeVisible();
    await expect(page.getByText('Choose a file...')).toBeVisible();
    // The button-like label is the chooser's visible click target; the input takes its name from the field's label.
    const chooser = page.waitForEvent('filechooser');
    await page.getByText('Choose a file...').click();
    expect((await chooser).element()).toBeTruthy();
    await page.getByLabel('Headshot for the issue (optional)').setInputFiles({ name: 'portrait.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('portrait.png')).toBeVisible();
    await expect(page.getByText('No file uploaded')).toHaveCount(0);
  });

  test('an empty ballot focuses the error summary, whose first link leads to the first field with an error', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await page.getByRole('checkbox', { name: 'I Affirm' }).focus();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.locator('#error-summary')).toBeFocused();
    await page.locator('#error-summary').getByRole('link').first().click();
    const first = page.getByRole('textbox', { name: 'First name' });
    await expect(first).toBeFocused();
    await expect(first).toBeInViewport();
    await expect(page.locator('.field-error').getByText('First name is required.')).toBeVisible();
    await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
    await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
    await expectNoAxeViolations(page);
  });

  test('too few names shows the red notice for five seconds', async ({ page }) => {
    await page.clock.install();
    await page.goto('/top-doctors-demo/');
    await fillVoter(page, voter('notice'));
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    const notice = page.getByText('You must fill out at least 1 name to submit this form.');
    await expect(notice).toBeVisible();
    await page.clock.runFor(4500);
    await expect(notice).toBeVisible();
    await page.clock.runFor(600);
    await expect(notice).toBeHidden();
    await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
  });

  test('write-ins: the note after the first, removal, and the limit', async ({ page }) => {
    await page.goto('/members-choice/demo');
    const add = page.getByRole('button', { name: 'Add Write-In' });
    await expect(page.getByRole('heading', { name: "Can't find your nominee?" })).toBeVisible();
    await expect(page.getByText('Write-ins are processed manually.')).toHaveCount(0);
    await add.click();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('placeholder', "Nominee's Name");
    await expect(page.getByText('may take up to 4 business days to appear')).toBeVisible();
    await add.click();
    await add.click();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(3);
    await expect(add).toHaveAttribute('aria-disabled', 'true');
    await expect(add).toHaveAccessibleDescription('You have reached the limit of 3 write-ins.');
    await add.dispatchEvent('click');
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(3);
    await page.getByRole('button', { name: 'Remove write-in 2' }).click();
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(2);
    await expect(add).not.toHaveAttribute('aria-disabled', 'true');
  });

  test('a personal link submits its prefilled ballot once', async ({ page }) => {
    await page.goto('/top-doctors-demo/demo');
    await fillVoter(page, voter('personal'));
    await page.getByRole('button', { name: 'Add Write-In' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Dr. Personal Pick');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Pediatrics' });
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    const post = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/api/survey?'));
    await page.getByRole('button', { name: 'Submit' }).click();
    const url = new URL((await post).url());
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret: 'demo',
      project_id: 'top-doctors-demo',
      project_type: 'form',
      sheet: 'Top Doctors 2027 ballots',
    });
    expect((await post).headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await expect(page.getByText('Your ballot has been received.')).toBeVisible();
  });

  test('can be filled and submitted with the keyboard alone', async ({ page }) => {
    const who = voter('keys');
    await page.goto('/top-doctors-demo/');
    await page.getByRole('textbox', { name: 'First name' }).focus();
    await page.keyboard.type(who.first);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(who.last);
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('MD-777');
    await page.keyboard.press('Tab');
    await page.keyboard.type(who.email);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type(who.practice);
    await expect(page.getByRole('textbox', { name: 'Medical practice' })).toHaveValue(who.practice);
    await expect(page.getByRole('combobox', { name: 'Medical credential' })).not.toHaveValue('');
    const slot = page.getByRole('combobox', { name: 'Family Medicine, First Nomination' });
    await slot.focus();
    await page.keyboard.type('siobhan obr');
    await expect(page.getByRole('listbox').getByRole('option').first()).toContainText("Siobhán O'Brien");
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(slot).toHaveValue("Siobhán O'Brien");
    await page.getByRole('checkbox', { name: 'I Affirm' }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Submit' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Your ballot has been received.')).toBeVisible();
  });

  test('fits a 360 px wide phone without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/top-doctors-demo/');
    await page.getByRole('button', { name: 'Add Write-In' }).click();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
  });
});

test.describe('when the survey API cannot be reached', () => {
  test('the ballot is kept, the visitor thanked, and it is stored once when the API is back', async ({ page, request, baseURL }) => {
    const who = voter('offline');
    await postDemoBallot(request, baseURL!, who.practice);
    await postDemoBallot(request, baseURL!, who.practice);
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto('/top-doctors-demo/');
    await fillVoter(page, who);
    await page.getByRole('button', { name: 'Add Write-In' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Dr. Offline Pick');
    await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Cardiology' });
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();

    let down = true;
    let tries = 0;
    await page.route('**/api/survey?*', (route) => {
      tries++;
      return down ? route.abort('connectionrefused') : route.fallback();
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
    await expect(page.getByText('Your ballot is saved on this device and will be sent when the connection returns.')).toBeVisible();
    expect(errors.some((text) => text.includes('A ballot could not be sent'))).toBe(true);
    expect(await workplaceBallots(request, who.practice)).toBe(0);

    // The connection returns: the browser says so with an `online` event.
    down = false;
    await page.evaluate(() => dispatchEvent(new Event('online')));
    await expect(page.getByText('Your ballot has been received.')).toBeVisible({ timeout: 15_000 });
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(await workplaceBallots(request, who.practice)).toBe(3);
    // Another visit finds nothing left to send, and nothing is stored twice.
    const posts: string[] = [];
    page.on('request', (sent) => sent.method() === 'POST' && posts.push(sent.url()));
    await page.goto('/top-doctors-demo/');
    expect(await keptCount(page)).toBe(0);
    await laterRequest(page);
    expect(posts).toEqual([]);
    expect(await workplaceBallots(request, who.practice)).toBe(3);
  });
});

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082',
  'hex',
);
