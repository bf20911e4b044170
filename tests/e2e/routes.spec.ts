import { expect, test } from '@playwright/test';

test.describe('routes', () => {
  test('/ goes to the default survey', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
    await expect(page).toHaveTitle('Top Doctors 2027');
  });

  test('/index.html goes home', async ({ page }) => {
    await page.goto('/index.html');
    await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
  });

  for (const slug of ['top-doctors-demo', 'best-dentists-2024', 'members-choice']) {
    test(`/${slug}/index.html goes to the survey's home`, async ({ page }) => {
      const response = await page.goto(`/${slug}/index.html`);
      await expect(page).toHaveURL(new RegExp(`/${slug}/$`));
      expect(response?.request().redirectedFrom()?.url()).toContain(`/${slug}/index.html`);
    });
  }

  for (const [path, heading, title] of [
    ['thankyou', 'Thank you', 'Thank you · Top Doctors 2027'],
    ['stats', 'Participation', 'Participation · Top Doctors 2027'],
    ['workplace-stats', 'Participation by workplace', 'Participation by workplace · Top Doctors 2027'],
  ]) {
    test(`/top-doctors-demo/${path} is a page with the shell`, async ({ page }) => {
      await page.goto(`/top-doctors-demo/${path}`);
      await expect(page).toHaveTitle(title);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toContainText('Powered by');
    });
  }

  test('an unknown address says so', async ({ page }) => {
    const response = await page.goto('/no-such-survey/');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});
