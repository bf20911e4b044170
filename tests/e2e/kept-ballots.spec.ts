import type { Request } from '@playwright/test';
import { expect, NOW_HEADER, test } from './fresh-server.ts';
import { expectNoAxeViolations, SECRETS, test as onSharedServer } from './fixtures.ts';
import { ballotCount, nominate } from './ballot-helpers.ts';
import { addWriteIn, expectFreshForm, fillBallot, keptCount, RECEIVED } from './kept-ballot-helpers.ts';
import { afterAppTimers } from './waits.ts';

// "Never lose a ballot": every answer of the survey API reaches the voter as what it means,
// the answers survive a reload, and an offline submit is kept and sent later. Each test that
// counts ballots, uses a personal link or sets the server's clock runs on a server of its own
// with an empty database (fresh-server.ts); the others, on the suite's server.

const SAVED = 'Your ballot is saved on this device and will be sent when the connection returns.';

const isBallotPost = (request: Request) => request.method() === 'POST' && /\/api\/survey\?/.test(request.url());

test.describe('every answer of the survey API has one meaning for the voter', () => {
  test('a second ballot on a used personal link is final: said so, never queued, never sent again', async ({ page, request }) => {
    await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    await addWriteIn(page, 'Dr. First Ballot');
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(RECEIVED)).toBeVisible();
    expect(await ballotCount(request)).toBe(1);

    await page.goto(`/top-doctors-demo/${SECRETS.evelyn}`);
    await addWriteIn(page, 'Dr. Second Ballot');
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    // From here on the page's timers run on Playwright's clock: the retries a kept ballot would get
    // (2 seconds, doubling to 5 minutes) can all be run at once below.
    await page.clock.install();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
    await expect(page.getByText('A ballot has already been received from this link.')).toBeVisible();
    await expect(page.getByText(SAVED)).toBeHidden();
    await expectNoAxeViolations(page);

    const posts: string[] = [];
    page.on('request', (r) => isBallotPost(r) && posts.push(r.url()));
    await afterAppTimers(page, 10 * 60_000);
    expect(posts).toEqual([]);
    expect(await keptCount(page)).toBe(0);
    expect(await ballotCount(request)).toBe(1);
  });

  test('a ballot refused for a rule says so, with the reason in the voter’s words', async ({ page, request }) => {
    await page.goto('/top-doctors-demo/');
    await fillBallot(page, 'refused');
    // The server's clock says the survey has ended by the time the ballot arrives (test hooks).
    await page.route('**/api/survey?*', (route) => route.continue({ headers: { ...route.request().headers(), [NOW_HEADER]: '2100-01-01T00:00:00Z' } }));
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(/\/thankyou$/);
    await expect(page.getByText('We could not accept your ballot.')).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Survey form has expired!' })).toBeVisible();
    await expect(page.getByText(RECEIVED)).toBeHidden();
    await expect(page.getByText('expired', { exact: true })).toHaveCount(0);
    await expectNoAxeViolations(page);
    expect(await keptCount(page)).toBe(0);
    expect(await ballotCount(request)).toBe(0);
    // Refused answers are kept to fix and send again.
    await page.unroute('**/api/survey?*');
    await page.goto('/top-doctors-demo/');
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Dr. refused Write-In');
  });

  test('offline at submit: thanked in place, saved on the device, then received when the connection returns', async ({ page, request, context }) => {
    await page.goto('/top-doctors-demo/');
    await fillBallot(page, 'offline');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(SAVED)).toBeVisible();
    await expect(page).toHaveURL(/\/top-doctors-demo\/thankyou$/);
    await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeHidden();
    await expectNoAxeViolations(page);
    expect(await keptCount(page)).toBe(1);
    expect(await ballotCount(request)).toBe(0);

    await context.setOffline(false);
    await expect(page.getByText(RECEIVED)).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText(SAVED)).toBeHidden();
    expect(await ballotCount(request)).toBe(1);
    expect(await keptCount(page)).toBe(0);
  });
});

onSharedServer.describe('the answers are kept on this device until they are sent', () => {
  onSharedServer('a reload keeps the draft, "Clear my answers" empties it, and a submit deletes it', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await expect(page.getByText('Your answers are saved on this device until you submit. Files are not kept.')).toBeVisible();
    await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
    await page.getByRole('checkbox', { name: 'Spanish' }).check();
    await nominate(page, 'Cardiology, First Nomination', 'jose alv', 'José Álvarez-Ruiz');
    await addWriteIn(page, 'Dr. Kept Draft');

    await page.reload();
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('Ada');
    await expect(page.getByRole('checkbox', { name: 'Spanish' })).toBeChecked();
    await expect(page.getByRole('combobox', { name: 'Cardiology, First Nomination' })).toHaveValue('José Álvarez-Ruiz');
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('Dr. Kept Draft');
    await expect(page.getByRole('combobox', { name: 'Category' })).toHaveValue('Primary Care / Pediatrics');

    await page.getByRole('button', { name: 'Clear my answers' }).click();
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('');
    await expect(page.getByRole('checkbox', { name: 'Spanish' })).not.toBeChecked();
    await expect(page.getByRole('combobox', { name: 'Cardiology, First Nomination' })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('');

    await fillBallot(page, 'draft');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(RECEIVED)).toBeVisible();
    await page.goto('/top-doctors-demo/');
    await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('');
    await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(0);
    // A second ballot stays possible on the public link; the page only says one left from here.
    await expect(page.getByText(/^A ballot was already sent from this device on /)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  });

  onSharedServer('Back after a submit shows a fresh form that matches what it will send (the page loaded again)', async ({ page }) => {
    await page.goto('/top-doctors-demo/');
    await fillBallot(page, 'back');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(RECEIVED)).toBeVisible();
    await page.goBack();
    await expectFreshForm(page);
  });
});

test('a ballot kept for a day is no longer sent in silence: the voter sends it again or downloads it', async ({ page, request }) => {
  await page.goto('/top-doctors-demo/');
  // A ballot this device kept two days ago, whose tries all failed.
  await page.evaluate(
    (createdAt) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('peervote', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('outbox', { keyPath: 'key' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('outbox', 'readwrite');
          const entries = [
            ['name-first', 'Kept'],
            ['name-last', 'For A Day'],
            ['medical-credential', 'MD'],
            ['medical-license', 'MD-424242'],
            ['email', 'kept@example.org'],
            ['medical-practice', 'Kept Clinic'],
            ['writeins[0][name]', 'Dr. Kept Write-In'],
            ['writeins[0][category]', 'Primary Care / Pediatrics'],
            ['affirm', 'on'],
          ];
          tx.objectStore('outbox').put({
            key: crypto.randomUUID(),
            slug: 'top-doctors-demo',
            url: '/api/survey?project_id=top-doctors-demo&project_type=form',
            entries,
            createdAt,
            reported: true,
          });
          tx.oncomplete = () => resolve();
        };
      }),
    Date.now() - 2 * 24 * 60 * 60 * 1000,
  );
  const posts: string[] = [];
  page.on('request', (r) => isBallotPost(r) && posts.push(r.url()));
  // The page's timers run on Playwright's clock: the outbox's retries can be run at once below.
  await page.clock.install();
  await page.reload();
  const offer = page.getByRole('region', { name: 'Ballots waiting on this device' });
  // The offer shows once the outbox has sent what it sends on its own: a silent send would have gone before it.
  await expect(offer.getByText(/has not reached us yet\. It is kept on this device\.$/)).toBeVisible();
  await afterAppTimers(page, 10 * 60_000);
  expect(posts).toEqual([]);

  const download = page.waitForEvent('download');
  await offer.getByRole('button', { name: 'Download it' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^ballot-top-doctors-demo-\d{4}-\d{2}-\d{2}\.json$/);
  const saved = JSON.parse(await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8')));
  expect(saved).toMatchObject({ survey: 'top-doctors-demo', ballot: { email: 'kept@example.org', 'writeins[0][name]': 'Dr. Kept Write-In' } });

  await offer.getByRole('button', { name: 'Send it again' }).click();
  await expect(offer.getByText(RECEIVED)).toBeVisible();
  await expect(offer.getByText(/has not reached us yet/)).toHaveCount(0);
  expect(posts).toHaveLength(1);
  expect(await ballotCount(request)).toBe(1);
  expect(await keptCount(page)).toBe(0);
});

onSharedServer('the slider sends the value it shows, before it is moved', async ({ page }) => {
  await page.goto('/top-doctors-demo/');
  await expect(page.getByRole('slider', { name: 'Years in practice' })).toHaveAttribute('aria-valuetext', '0-5');
  await fillBallot(page, 'slider');
  const post = page.waitForRequest(isBallotPost);
  await page.getByRole('button', { name: 'Submit' }).click();
  const body = (await post).postDataBuffer()!.toString('latin1');
  expect(body).toMatch(/name="years-in-practice"\r\n\r\n0-5\r\n/);
  await expect(page.getByText(RECEIVED)).toBeVisible();
});
