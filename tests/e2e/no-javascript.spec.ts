import { expect, test, type Page } from '@playwright/test';
import { SECRETS } from './fixtures.ts';
import { fillVoter, voter } from './ballot-helpers.ts';
import { serveFresh } from './fresh-server.ts';

test.use({ javaScriptEnabled: false });

test.describe('with JavaScript off', () => {
  test('the header, welcome, rules and footer are readable', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await expect(page.getByRole('banner').getByRole('heading', { name: 'Top Doctors 2027' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who would you send your own family to?' })).toBeVisible();
    await expect(page.getByText('which colleagues would you trust with the care of your own family?')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('paragraph')).toHaveText(['Powered by Peervote', 'Accessibility statement']);
  });

  test('the receipt check form asks the API, which answers a plain page', async ({ page }) => {
    await page.goto('/top-doctors-demo/receipt');
    await page.getByRole('textbox', { name: 'Receipt code' }).fill('ZZZZ-ZZZZ-ZZZZ');
    await page.getByRole('button', { name: 'Check' }).click();
    await expect(page.getByText('No ballot with the receipt ZZZZ-ZZZZ-ZZZZ has been received. Check the code against your thank-you page.')).toBeVisible();
  });

  test('the invalid-link state is readable', async ({ page }) => {
    await page.goto('/members-choice/');
    await expect(page.getByRole('heading', { name: 'Invalid link!' })).toBeVisible();
  });

  test('the expired state is readable', async ({ page }) => {
    await page.goto('/best-dentists-2024/');
    await expect(page.getByRole('heading', { name: 'Survey form has expired!' })).toBeVisible();
  });

  for (const secret of [SECRETS.evelyn, 'demo']) {
    test(`a personal link (${secret === 'demo' ? 'demo' : 'a voter’s'}) shows the header, welcome, rules and footer, and says it needs JavaScript`, async ({
      page,
    }) => {
      await page.goto(`/top-doctors-demo/${secret}`);
      await expect(page.getByText('Your personal ballot needs JavaScript.', { exact: false })).toBeVisible();
      await expect(page.getByRole('banner').getByRole('heading', { name: 'Top Doctors 2027' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Who would you send your own family to?' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeVisible();
      await expect(page.getByRole('contentinfo').getByRole('paragraph')).toHaveText(['Powered by Peervote', 'Accessibility statement']);
    });
  }

  test('an invalid link shows neither the welcome nor the rules', async ({ page }) => {
    await page.goto('/members-choice/');
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeHidden();
  });
});

test.describe('a ballot sent without JavaScript', () => {
  // Each test on a server of its own, with an empty database, so that the stats count its ballots alone.
  const onFreshServer = test.extend<{ freshServer: string }>({
    freshServer: async ({}, use) => serveFresh(use),
    baseURL: async ({ freshServer }, use) => use(freshServer),
  });

  /** Every request to the ballot endpoint, with its method. */
  function ballotRequests(page: Page): Array<{ method: string; url: string }> {
    const seen: Array<{ method: string; url: string }> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/survey') || request.url().includes('email='))
        seen.push({ method: request.method(), url: request.url() });
    });
    return seen;
  }

  onFreshServer(
    'submitting posts the ballot, never in the address; it is stored with its typed nomination kept as a write-in',
    async ({ page, request, baseURL }) => {
      const seen = ballotRequests(page);
      const who = voter('nojs');
      await page.goto('/top-doctors-demo/');
      await fillVoter(page, who);
      await page.getByRole('combobox', { name: 'Cardiology, First Nomination' }).fill('Dr. Typed Without Script');
      await page.getByRole('checkbox', { name: 'I Affirm' }).check();
      await page.getByRole('button', { name: 'Submit' }).click();

      await expect(page).toHaveURL(`${baseURL}/top-doctors-demo/thankyou`);
      expect(seen.map((one) => one.method)).toEqual(['POST']);
      expect(seen[0].url).not.toContain(encodeURIComponent(who.email));
      const stats = await (await request.get('/api/survey/stats/top-doctors-demo')).json();
      expect(stats).toMatchObject({ ballots: 1, write_ins: 1 });
    },
  );

  onFreshServer('a ballot missing a required answer shows the problems in the voter’s words, and stores nothing', async ({ page, request }) => {
    const seen = ballotRequests(page);
    await page.goto('/top-doctors-demo/');
    await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Top Doctors 2027' })).toBeVisible();
    await expect(page.getByText('your answers are still there', { exact: false })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Last name' })).toBeVisible();
    expect(seen.map((one) => one.method)).toEqual(['POST']);
    const stats = await (await request.get('/api/survey/stats/top-doctors-demo')).json();
    expect(stats.ballots).toBe(0);
  });
});
