import { expect, type Page } from '@playwright/test';
import { fillVoter, voter } from './ballot-helpers.ts';

/** What the thank-you page says of a ballot the survey API has stored. */
export const RECEIVED = 'Your ballot has been received.';

/** Fills a valid public demo ballot: the voter, one write-in, the affirmation. */
export async function fillBallot(page: Page, tag: string): Promise<void> {
  await fillVoter(page, voter(tag));
  await addWriteIn(page, `Dr. ${tag} Write-In`);
  await page.getByRole('checkbox', { name: 'I Affirm' }).check();
}

/** Adds one write-in in Pediatrics. */
export async function addWriteIn(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Add Write-In' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await page.getByRole('combobox', { name: 'Category' }).selectOption({ label: 'Pediatrics' });
}

/** The form after Back: empty, not affirmed, ready, and what shows is what the ballot holds. */
export async function expectFreshForm(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/top-doctors-demo\/$/);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await expect(page.getByRole('checkbox', { name: 'I Affirm' })).not.toBeChecked();
  await expect(page.getByRole('textbox', { name: 'First name' })).toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toHaveCount(0);
  // A submit now finds the affirmation missing, as the box shows.
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('checkbox', { name: 'I Affirm' })).toHaveAttribute('aria-invalid', 'true');
}

/** The ballots kept in this browser's outbox (IndexedDB). */
export async function keptCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('peervote', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('outbox', { keyPath: 'key' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('outbox').objectStore('outbox').count();
          count.onsuccess = () => resolve(count.result);
        };
      }),
  );
}
