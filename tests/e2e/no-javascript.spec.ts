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

  test('a personal link says it needs JavaScript', async ({ page }) => {
    await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    await expect(page.getByText('Your personal ballot needs JavaScript.', { exact: false })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Rules for Submission' })).toBeHidden();
  });
});
