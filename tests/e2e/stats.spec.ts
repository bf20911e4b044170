import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fresh-server.ts';
import { expectNoAxeViolations } from './fixtures.ts';
import { postDemoBallot } from './ballot-helpers.ts';
import { demoBallotFields } from '../support/ballots.mjs';
import { parseSlotName } from '../../src/survey/ballots/ballot-keys.ts';

// Every test here runs on a server of its own (fresh-server.ts): the figures are exactly those
// of the ballots the test submits.

/** Posts the demo ballot number `n` of tests/support/ballots.mjs; returns its nominations per "sub-category|group". */
async function postFullBallot(request: APIRequestContext, baseURL: string, n: number): Promise<Map<string, number>> {
  const fields = demoBallotFields(n);
  const response = await request.post('/api/survey?project_id=top-doctors-demo&project_type=form', {
    headers: { Origin: baseURL },
    multipart: Object.fromEntries(fields),
  });
  expect(response.status(), await response.text()).toBe(201);
  const counts = new Map<string, number>();
  for (const [name, value] of fields) {
    const slot = parseSlotName(name);
    if (slot && value) counts.set(`${slot.subcategory}|${slot.group}`, (counts.get(`${slot.subcategory}|${slot.group}`) ?? 0) + 1);
  }
  return counts;
}

test.describe('the stats pages', () => {
  test('/stats shows the ballots, nominations and write-ins submitted, per day and per category, and refreshes every minute', async ({
    page,
    request,
    baseURL,
  }) => {
    const nominations = new Map<string, number>();
    for (const n of [0, 1, 2]) {
      for (const [key, count] of await postFullBallot(request, baseURL!, n)) nominations.set(key, (nominations.get(key) ?? 0) + count);
    }
    const total = [...nominations.values()].reduce((a, b) => a + b, 0);
    // A ballot sent with the demo secret is not counted.
    const demo = await request.post('/api/survey?project_id=top-doctors-demo&project_type=form&secret=demo', {
      headers: { Origin: baseURL! },
      multipart: Object.fromEntries(demoBallotFields(9)),
    });
    expect(demo.status()).toBe(201);

    await page.clock.install();
    await page.goto('/top-doctors-demo/stats');
    await expect(page.getByRole('heading', { name: 'Participation', exact: true })).toBeVisible();
    const totals = page.getByRole('definition');
    await expect(totals).toHaveText(['3', String(total), '3']);
    await expect(page.getByRole('term')).toHaveText(['Ballots', 'Nominations', 'Write-ins']);

    const today = new Date().toLocaleDateString('en', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    await expect(page.getByRole('img', { name: `Ballots per day from ${today} to ${today}; the most, 3, on ${today}.` })).toBeVisible();
    await page.getByText('Ballots per day as a table').click();
    await expect(page.getByRole('table', { name: 'Ballots per day (days without ballots left out)' }).getByRole('row', { name: `${today} 3` })).toBeVisible();

    const chart = page.getByRole('img', { name: /^Nominations per category: / });
    await expect(chart).toHaveAccessibleName(/Cardiology \(Heart and Lungs\), \d+; Pulmonology \(Heart and Lungs\), \d+/);
    await page.getByText('Nominations per category as a table').click();
    const table = page.getByRole('table', { name: 'Nominations per category' });
    await expect(table.getByRole('row')).toHaveCount(1 + 8);
    for (const [key, count] of nominations) {
      const [subcategory, group] = key.split('|');
      await expect(table.getByRole('row', { name: `${subcategory} ${group} ${count}`, exact: true })).toBeVisible();
    }
    await expectNoAxeViolations(page);

    await postFullBallot(request, baseURL!, 3);
    await page.clock.runFor(30_000);
    await expect(totals.first()).toHaveText('3');
    await page.clock.runFor(31_000);
    await expect(totals.first()).toHaveText('4');
    await expect(page.getByText(/they refresh every minute while this page is open/)).toBeVisible();
  });

  test('/workplace-stats ranks the workplaces, folds the small ones into Other, and finds one’s own', async ({ page, request, baseURL }) => {
    const practices = [
      'Hilltop Hospital',
      'Hilltop Hospital',
      'hilltop  hospital',
      'Hilltop Hospital',
      'Lakeside Clinic',
      'Lakeside Clinic',
      'LAKESIDE CLINIC',
      'Tiny Practice',
      'Small Group',
      'Small Group',
    ];
    for (const practice of practices) await postDemoBallot(request, baseURL!, practice);

    await page.goto('/top-doctors-demo/workplace-stats');
    await expect(page.getByRole('heading', { name: 'Participation by workplace', exact: true })).toBeVisible();
    await expect(page.getByText('10 ballots from 2 workplaces with at least 3 ballots, and 3 under “Other”.')).toBeVisible();
    await expect(page.getByRole('img', { name: 'The workplaces with the most ballots: Hilltop Hospital, 4; Lakeside Clinic, 3; Other, 3.' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Ballots per workplace, ranked' });
    await expect(table.getByRole('row')).toHaveText([/Rank\s*Workplace\s*Ballots/, /1\s*Hilltop Hospital\s*4/, /2\s*Lakeside Clinic\s*3/, /–\s*Other\s*3/]);
    await expect(table.getByRole('rowheader', { name: 'Hilltop Hospital' })).toBeVisible();
    await expectNoAxeViolations(page);

    const filter = page.getByRole('searchbox', { name: 'Find your workplace' });
    await filter.fill('  LAKESIDE ');
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toHaveText(/2\s*Lakeside Clinic\s*3/);
    await expect(page.getByText('1 of 3 workplaces match “LAKESIDE”.')).toBeVisible();
    await filter.fill('Tiny Practice');
    await expect(page.getByText('No workplace matches “Tiny Practice”. Workplaces with fewer than 3 ballots are counted under “Other”.')).toBeVisible();
    await expect(table).toHaveCount(0);
    await filter.fill('');
    await expect(page.getByRole('table', { name: 'Ballots per workplace, ranked' }).getByRole('row')).toHaveCount(4);
  });

  for (const [path, heading] of [
    ['stats', 'Participation'],
    ['workplace-stats', 'Participation by workplace'],
  ]) {
    test(`/${path} says so when the survey API cannot be reached, and tries again`, async ({ page }) => {
      await page.route('**/api/survey/*stats/**', (route) => route.abort('connectionrefused'));
      await page.goto(`/top-doctors-demo/${path}`);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await expect(page.getByText('The figures could not be loaded: the survey’s server could not be reached.')).toBeVisible();
      await expectNoAxeViolations(page);
      await page.unroute('**/api/survey/*stats/**');
      await page.getByRole('button', { name: 'Try again' }).click();
      await expect(page.getByText('The figures could not be loaded')).toBeHidden();
      await expect(page.getByText(/^Figures as of /)).toBeVisible();
    });

    test(`/${path} fits a 360 px wide phone without sideways scrolling`, async ({ page, request, baseURL }) => {
      for (const practice of [
        'A Practice With A Rather Long Name Of Many Words',
        'A Practice With A Rather Long Name Of Many Words',
        'A Practice With A Rather Long Name Of Many Words',
      ]) {
        await postDemoBallot(request, baseURL!, practice);
      }
      await postFullBallot(request, baseURL!, 1);
      await page.setViewportSize({ width: 360, height: 780 });
      await page.goto(`/top-doctors-demo/${path}`);
      await expect(page.getByText(/^Figures as of /)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    });
  }
});
