import { expect, expectNoAxeViolations, SECRETS, test } from './fixtures.ts';

const INVALID = 'Sorry, this link is invalid! Please use your custom link to access your survey form.';

test.describe('the public link', () => {
  test('shows the demo survey: header, welcome, rules, ballot and footer', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await expect(page).toHaveTitle('Top Doctors 2027');
    await expect(page.getByRole('banner').getByRole('heading', { name: 'Top Doctors 2027' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Top Doctors 2027 home' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who would you send your own family to?' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'One ballot per physician per year.' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'First name' })).toBeEditable();
    await expect(page.getByRole('contentinfo').getByRole('paragraph')).toHaveText(['Powered by Peervote', 'Accessibility statement']);
    await expect(page.getByText('Invalid link!')).toBeHidden();
    await expectNoAxeViolations(page);
  });

  test('of a survey without welcome and rules leaves both out', async ({ page }) => {
    await page.clock.setFixedTime(new Date('2025-01-15T12:00:00Z'));
    await page.goto('/best-dentists-2024/');
    await expect(page).toHaveTitle('Best Dentists 2024');
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toHaveCount(0);
    await expect(page.locator('.welcome')).toHaveCount(0);
  });

  test('is invalid when the survey takes personal links only', async ({ page }) => {
    await page.goto('/members-choice/');
    await expect(page.getByRole('heading', { name: 'Invalid link!' })).toBeVisible();
    await expect(page.getByText(INVALID)).toBeVisible();
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeHidden();
    await expect(page.getByRole('heading', { name: "Members' Choice 2027" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('expiry', () => {
  test('shows the expired state for a survey past its date', async ({ page }) => {
    await page.goto('/best-dentists-2024/');
    await expect(page.getByRole('heading', { name: 'Survey form has expired!' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeHidden();
    await expectNoAxeViolations(page);
  });

  test('is decided when the page is viewed, not when it was built', async ({ page }) => {
    await page.clock.setFixedTime(new Date('2100-01-01T00:00:00Z'));
    await page.goto('/top-doctors-demo/');
    await expect(page.getByRole('heading', { name: 'Survey form has expired!' })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeHidden();
  });

  test('covers personal links too', async ({ page }) => {
    await page.goto(`/best-dentists-2024/${SECRETS.evelyn}`);
    await expect(page.getByRole('heading', { name: 'Survey form has expired!' })).toBeVisible();
  });
});

test.describe('a personal link', () => {
  test('gives the ballot form its secret, so that the form still posts it should the islands fail', async ({ page }) => {
    await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
    const action = await page.getByRole('form', { name: 'Ballot' }).getAttribute('action');
    expect(new URL(action!).search).toBe(`?project_id=top-doctors-demo&project_type=form&sheet=Top+Doctors+2027+ballots&secret=${SECRETS.evelyn}`);
    await expect(page.getByRole('form', { name: 'Ballot' })).toHaveAttribute('method', 'post');
  });

  test('prefills the holder’s answers, read-only where prepopulated', async ({ page }) => {
    await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    const first = page.getByRole('textbox', { name: 'First name' });
    await expect(first).toHaveValue('Evelyn');
    await expect(first).not.toBeEditable();
    await expect(page.getByRole('textbox', { name: 'Last name' })).toHaveValue('Castellano-Whitby');
    await expect(page.getByRole('textbox', { name: 'Medical credential' })).toHaveValue('MD');
    await expect(page.getByRole('textbox', { name: 'Medical license number' })).not.toBeEditable();
    // Email is prepopulated but not marked so: the holder may correct it.
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toHaveValue('evelyn.castellano@northgate-clinic.example');
    await expect(email).toBeEditable();
    await expectNoAxeViolations(page);
  });

  test('leaves fields the person has no value for editable', async ({ page }) => {
    await page.goto(`/top-doctors-demo/${SECRETS.rajesh}`);
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Rajesh');
    await expect(page.getByRole('textbox', { name: 'Middle name' })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Middle name' })).toBeEditable();
  });

  test('opens an invitation-only survey, with disabled fields read-only', async ({ page }) => {
    await page.goto(`/members-choice/${SECRETS.member}`);
    await expect(page.getByRole('textbox', { name: 'Member name' })).toHaveValue('Margarethe Oyelaran-Dubois');
    const number = page.getByRole('textbox', { name: 'Member number' });
    await expect(number).toHaveValue('CMS-30417');
    await expect(number).not.toBeEditable();
    await expect(page.getByText('Invalid link!')).toBeHidden();
  });

  test('with the demo secret opens any survey, prefilling nothing', async ({ page }) => {
    await page.goto('/members-choice/demo');
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Member name' })).toHaveValue('');
  });

  // Names every object inherits are no one's secret: an invitation-only survey stays closed to them.
  const inherited = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty'].map((name) => `/members-choice/${name}`);
  for (const path of ['/members-choice/not-a-secret', `/top-doctors-demo/${SECRETS.member}`, ...inherited]) {
    test(`with an unknown secret is invalid: ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Invalid link!' })).toBeVisible();
      await expect(page.getByText(INVALID)).toBeVisible();
      await expect(page.getByRole('form', { name: 'Ballot' })).toBeHidden();
    });
  }

  test('keeps the secret out of the Referer of every request the page makes', async ({ page }) => {
    const referers: Array<string | undefined> = [];
    page.on('request', (request) => referers.push(request.headers().referer));
    const response = await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    expect(response?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Evelyn');
    expect(referers.length).toBeGreaterThan(3);
    expect(referers.filter((referer) => referer?.includes(SECRETS.evelyn))).toEqual([]);
  });

  test('that cannot be checked offers to try again', async ({ page }) => {
    let fail = true;
    await page.route('**/api/survey/link/**', (route) => (fail ? route.abort('connectionrefused') : route.fallback()));
    await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    await expect(page.getByRole('heading', { name: 'We could not open your ballot' })).toBeVisible();
    await expectNoAxeViolations(page);
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Evelyn');
  });
});

test('a very old browser is asked to upgrade', async ({ page }) => {
  await page.addInitScript(() => {
    // @ts-expect-error: an old browser has no FormData
    delete window.FormData;
  });
  await page.goto('/top-doctors-demo/');
  await expect(page.getByRole('heading', { name: 'You have a very old web browser' })).toBeVisible();
  await expect(page.getByText('Please upgrade')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Ballot' })).toBeHidden();
  await expectNoAxeViolations(page);
});
