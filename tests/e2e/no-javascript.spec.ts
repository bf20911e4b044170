import { expect, test } from '@playwright/test';
import { SECRETS } from './fixtures.ts';

test.use({ javaScriptEnabled: false });

test.describe('with JavaScript off', () => {
  test('the header, welcome, rules and footer are readable', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await expect(page.getByRole('banner').getByRole('heading', { name: 'Top Doctors 2027' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Who would you send your own family to?' })).toBeVisible();
    await expect(page.getByText('which colleagues would you trust with the care of your own family?')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toHaveText('Powered by Peervote');
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
    test(`a personal link (${secret === 'demo' ? 'demo' : 'a voter’s'}) shows the header, welcome, rules and footer, and says it needs JavaScript`, async ({ page }) => {
      await page.goto(`/top-doctors-demo/${secret}`);
      await expect(page.getByText('Your personal ballot needs JavaScript.', { exact: false })).toBeVisible();
      await expect(page.getByRole('banner').getByRole('heading', { name: 'Top Doctors 2027' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Who would you send your own family to?' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toHaveText('Powered by Peervote');
    });
  }

  test('an invalid link shows neither the welcome nor the rules', async ({ page }) => {
    await page.goto('/members-choice/');
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeHidden();
  });
});
