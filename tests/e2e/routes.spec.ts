import { expect, test } from './fixtures.ts';

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
    ['receipt', 'Check your receipt', 'Receipt check · Top Doctors 2027'],
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

test.describe('delivery', () => {
  test('pages and scripts go out precompressed, hashed assets cached for a year', async ({ page, request }) => {
    const home = await request.get('/top-doctors-demo/', { headers: { 'Accept-Encoding': 'br' } });
    expect(home.headers()['content-encoding']).toBe('br');
    expect(home.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(await home.text()).toContain('Rules for Submission');

    const scripts: Array<Promise<string>> = [];
    page.on('response', (response) => {
      if (!response.url().includes('/_astro/') || !response.url().endsWith('.js')) return;
      // Files under 1 KB are not worth compressing and go out as they are.
      scripts.push(
        response
          .body()
          .then((body) => `${response.headers()['content-encoding'] ?? (body.length < 1024 ? 'small' : 'none')} ${response.headers()['cache-control']}`),
      );
    });
    await page.goto('/top-doctors-demo/');
    await expect(page.getByRole('form', { name: 'Ballot' })).toBeVisible();
    const seen = await Promise.all(scripts);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toContain('br public, max-age=31536000, immutable');
    expect(new Set(seen.map((line) => line.replace(/^small /, 'br ')))).toEqual(new Set(['br public, max-age=31536000, immutable']));
  });

  test('a personal link is served compressed too, and a browser without compression gets plain HTML', async ({ request }) => {
    const personal = await request.get('/top-doctors-demo/k7Qm2RzX4pWv', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(personal.headers()['content-encoding']).toBe('gzip');
    const plain = await request.get('/top-doctors-demo/', { headers: { 'Accept-Encoding': 'identity' } });
    expect(plain.headers()['content-encoding']).toBeUndefined();
    expect(await plain.text()).toContain('Rules for Submission');
  });
});
