import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Fills the demo survey's required questions about the voter. */
export async function fillVoter(page: Page, who: { first: string; last: string; email: string; practice: string }): Promise<void> {
  await page.getByRole('textbox', { name: 'First name' }).fill(who.first);
  await page.getByRole('textbox', { name: 'Last name' }).fill(who.last);
  await page.getByRole('combobox', { name: 'Medical credential' }).selectOption('MD');
  await page.getByRole('textbox', { name: 'Medical license number' }).fill('MD-100200');
  await page.getByRole('textbox', { name: 'Email' }).fill(who.email);
  await page.getByRole('textbox', { name: 'Medical practice' }).fill(who.practice);
}

/** Types into a nomination slot and picks the suggestion with the given name. */
export async function nominate(page: Page, slot: string, query: string, name: string): Promise<void> {
  const input = page.getByRole('combobox', { name: slot });
  await input.fill(query);
  await page
    .getByRole('option', { name: new RegExp(`^${name}`) })
    .first()
    .click();
  await expect(input).toHaveValue(name);
}

/** The demo survey's participation figures, as the stats endpoint gives them. */
export async function ballotCount(request: APIRequestContext, projectId = 'top-doctors-demo'): Promise<number> {
  const response = await request.get(`/api/survey/stats/${projectId}`);
  expect(response.ok()).toBe(true);
  return (await response.json()).ballots as number;
}

/** A distinct voter for each test, so that tests running side by side count their own ballots. */
export function voter(tag: string) {
  const id = `${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  return { first: 'Ada', last: `Tester ${id}`, email: `${id}@example.org`, practice: `Practice ${id}` };
}

/** Posts a minimal valid demo ballot straight to the API, as another voter's browser would. */
export async function postDemoBallot(request: APIRequestContext, baseURL: string, practice: string): Promise<void> {
  const tag = Math.random().toString(36).slice(2, 9);
  const response = await request.post('/api/survey?project_id=top-doctors-demo&project_type=form', {
    headers: { Origin: baseURL },
    multipart: {
      'name-first': 'Other',
      'name-last': `Voter ${tag}`,
      'medical-credential': 'DO',
      'medical-license': `DO-${tag}`,
      email: `${tag}@example.org`,
      'medical-practice': practice,
      'writeins[0][name]': `Dr. Write ${tag}`,
      'writeins[0][category]': 'Primary Care / Pediatrics',
      affirm: 'on',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** How many ballots name this workplace, from the workplace stats (0 while it is folded into Other). */
export async function workplaceBallots(request: APIRequestContext, practice: string): Promise<number> {
  const response = await request.get('/api/survey/workplace-stats/top-doctors-demo');
  expect(response.ok()).toBe(true);
  const { workplaces } = (await response.json()) as { workplaces: Array<{ name: string; ballots: number }> };
  return workplaces.find((w) => w.name.toLowerCase() === practice.toLowerCase())?.ballots ?? 0;
}
