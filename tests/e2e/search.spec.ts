import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures.ts';
import { surveyCspSources } from '../../src/survey/config/third-parties.ts';
import { interceptThirdParties } from './third-party-stubs.ts';
import { laterRequest, nextFrame } from './waits.ts';

// Nominee search as a voter uses it, on the demo survey, against the real local backend.
const DEMO = '/top-doctors-demo/';
const CARDIOLOGY = 'nominations[Heart and Lungs][Cardiology]';

const slot = (page: Page, name: string) => page.getByRole('combobox', { name });
const options = (page: Page) => page.getByRole('listbox').getByRole('option');

async function typeInto(page: Page, name: string, text: string) {
  const input = slot(page, name);
  await input.click();
  await input.pressSequentially(text, { delay: 40 });
  // The suggestions for the whole text have come, as the slot's status line says: on a loaded
  // machine a pause mid-word sends a search for a part of it, whose suggestions show meanwhile.
  await expect(page.getByRole('status').filter({ hasText: /^\d+ suggestions\. |^No nominee found\.$/ })).toHaveCount(1);
  return input;
}

/** Types the whole text at once, as a paste would: one search goes, however slow the machine is. */
async function fillIn(page: Page, name: string, text: string) {
  const input = slot(page, name);
  await input.click();
  await input.fill(text);
  return input;
}

test.beforeEach(async ({ page }) => {
  await page.goto(DEMO);
  await expect(page.getByRole('heading', { name: 'Your nominations' })).toBeVisible();
});

test('shows each category group with its ads and sub-categories of three nomination inputs', async ({ page }) => {
  await expect(page.getByRole('region', { name: 'Your nominations' }).getByRole('heading', { level: 3 })).toHaveText([
    'Primary Care',
    'Heart and Lungs',
    'Surgery',
  ]);
  const primaryCare = page.getByRole('region', { name: 'Primary Care' });
  await expect(primaryCare.getByRole('img', { name: 'Advertisement' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Surgery' }).getByRole('img')).toHaveCount(0);
  const cardiology = page.getByRole('group', { name: 'Cardiology' });
  await expect(cardiology.getByRole('combobox')).toHaveCount(3);
  for (const placeholder of ['First Nomination', 'Second Nomination', 'Third Nomination']) {
    await expect(slot(page, `Cardiology, ${placeholder}`)).toHaveAttribute('placeholder', placeholder);
  }
  await expect(page.getByRole('region', { name: 'Your nominations' }).getByRole('combobox')).toHaveCount(8 * 3);
});

test('loads the search code when a voter first focuses a nomination input, not with the page', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  // Loaded and hydrated, and a request later: every script the page asks for by itself has been asked for.
  await page.reload();
  await laterRequest(page);
  expect(scripts.some((path) => path.includes('instant-search'))).toBe(false);
  await slot(page, 'Pediatrics, First Nomination').focus();
  await expect.poll(() => scripts.some((path) => path.includes('instant-search'))).toBe(true);
  // Without Algolia keys, Algolia's client is never fetched.
  expect(scripts.some((path) => /algolia|browser\./.test(path))).toBe(false);
});

test('suggests 12 nominees once typing pauses, with the details that tell them apart; a click picks one', async ({ page }) => {
  const searches: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/search/')) searches.push(request.postData() ?? '');
  });
  // Typed in one input event: on a loaded machine, keystrokes 40 ms apart can arrive more than the debounce apart.
  const input = await fillIn(page, 'Cardiology, First Nomination', 'maria');
  await expect(options(page)).toHaveCount(12);
  expect(searches).toHaveLength(1);
  expect(JSON.parse(searches[0])).toEqual({
    requests: [{ indexName: 'top-doctors-demo', params: { query: 'maria', hitsPerPage: 12, page: 0, optionalFilters: ['specialty:Cardiology'] } }],
  });
  await expect(input).toHaveAttribute('aria-expanded', 'true');

  const lakeview = options(page).filter({ hasText: 'Lakeview Heart Institute' }).filter({ hasText: 'Maria Garcia' });
  await expect(lakeview).toContainText('Cardiology · Lakeview Heart Institute · Lakeview');
  await expect(options(page).filter({ hasText: 'Northgate Family Clinic' }).filter({ hasText: 'Maria Garcia' })).toHaveCount(1);
  await lakeview.click();

  await expect(input).toHaveValue('Maria Garcia');
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(page.locator(`input[type=hidden][name="${CARDIOLOGY}[1]"]`)).toHaveValue('tdd-0007');
  await input.blur();
  await expect(input).toHaveValue('Maria Garcia');
});

test('picks with the keyboard: arrows move the highlight, Enter picks, Escape closes', async ({ page }) => {
  const input = await typeInto(page, 'Neurosurgery, Second Nomination', 'castellanos');
  await expect(options(page).first()).toBeVisible();
  const names = await options(page).locator('.suggestion-name').allTextContents();

  await page.keyboard.press('ArrowDown');
  await expect(options(page).nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await options(page).nth(0).getAttribute('id'))!);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await expect(options(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options(page).nth(0)).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(input).toHaveValue('castellanos');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');

  await expect(input).toHaveValue(names[1]);
  await expect(page.locator(`input[type=hidden][name="nominations[Surgery][Neurosurgery][2]"]`)).toHaveAttribute('value', /^tdd-\d+$/);
});

test('Escape closes the suggestions while a search is on its way, and its late answer does not open them again', async ({ page }) => {
  const input = await fillIn(page, 'Cardiology, First Nomination', 'maria');
  await expect(options(page)).toHaveCount(12);
  // The next search is held until Escape has closed the list.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/search/**', async (route) => {
    await held;
    await route.continue();
  });
  const asked = page.waitForRequest((request) => request.url().includes('/api/search/'));
  await input.fill('maria g');
  await asked;
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);

  const answered = page.waitForResponse((response) => response.url().includes('/api/search/'));
  release();
  await (await answered).finished();
  // A request of the page's own, sent and answered after the search's answer came: the page has handled that answer by then.
  await page.evaluate(() => fetch('/api/health', { cache: 'no-store' }).then((response) => response.text()));
  await nextFrame(page);
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await expect(input).toHaveValue('maria g');
});

test('clears text that was not picked when the input loses focus', async ({ page }) => {
  const input = await typeInto(page, 'Pulmonology, First Nomination', 'zoe ngu');
  await expect(options(page).first()).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(input).toHaveValue('');
  await expect(input).toHaveAccessibleDescription('“zoe ngu” was not kept: pick a name from the list, or add it as a write-in below.');
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await expect(page.locator('input[type=hidden][name^="nominations[Heart and Lungs][Pulmonology]"]')).toHaveCount(0);

  // Editing a picked name un-picks it; leaving then clears it too.
  await typeInto(page, 'Pulmonology, First Nomination', 'zoe ngu');
  await options(page).filter({ hasText: 'Zoë Nguyen-Laurent' }).click();
  await expect(input).toHaveValue('Zoë Nguyen-Laurent');
  await input.press('Backspace');
  await input.blur();
  await expect(input).toHaveValue('');
});

test('a slot’s suggestions are led by its sub-category, ranked by relevance', async ({ page }) => {
  await typeInto(page, 'Family Medicine, First Nomination', 'mar');
  await expect(options(page)).toHaveCount(12);
  const details = await options(page).locator('.suggestion-details').allTextContents();
  for (const line of details) expect(line).toMatch(/^Family Medicine · /);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');

  await typeInto(page, 'Neurosurgery, First Nomination', 'mar');
  await expect(options(page).first().locator('.suggestion-details')).toHaveText(/^Neurosurgery · /);
});

test('Enter picks the one suggestion that is exactly the text, even before the suggestions show', async ({ page }) => {
  const input = slot(page, 'Pediatrics, Second Nomination');
  await input.click();
  await input.pressSequentially("siobhan o'brien", { delay: 10 });
  await input.press('Enter');
  await expect(input).toHaveValue("Siobhán O'Brien");
  await expect(page.locator('input[type=hidden][name="nominations[Primary Care][Pediatrics][2]"]')).toHaveValue('tdd-0002');
});

test('a pasted name that is one nominee’s is picked, also when the voter leaves at once', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const paste = async (name: string, text: string) => {
    await page.evaluate((value) => navigator.clipboard.writeText(value), text);
    const input = slot(page, name);
    await input.click();
    await input.press('ControlOrMeta+V');
    return input;
  };
  const first = await paste('Family Medicine, First Nomination', 'Zoë Nguyen-Laurent');
  await expect(first).toHaveValue('Zoë Nguyen-Laurent');
  await expect(page.locator('input[type=hidden][name="nominations[Primary Care][Family Medicine][1]"]')).toHaveValue('tdd-0003');

  const second = await paste('Pediatrics, First Nomination', "Siobhán O'Brien");
  await page.keyboard.press('Tab');
  await expect(second).toHaveValue("Siobhán O'Brien");
  await expect(page.locator('input[type=hidden][name="nominations[Primary Care][Pediatrics][1]"]')).toHaveValue('tdd-0002');

  // Two nominees of one name: which one is meant is for the voter to say, from the list.
  const third = await paste('Internal Medicine, First Nomination', 'Maria Garcia');
  await page.keyboard.press('Tab');
  await expect(third).toHaveValue('');
  await expect(third).toHaveAccessibleDescription('“Maria Garcia” was not kept: pick a name from the list, or add it as a write-in below.');
});

test('a picked nominee shows what tells namesakes apart', async ({ page }) => {
  await typeInto(page, 'Cardiology, First Nomination', 'maria garcia');
  await options(page).filter({ hasText: 'Lakeview Heart Institute' }).click();
  await typeInto(page, 'Family Medicine, First Nomination', 'maria garcia');
  await options(page).filter({ hasText: 'Northgate Family Clinic' }).click();
  await expect(slot(page, 'Cardiology, First Nomination')).toHaveAccessibleDescription('Cardiology · Lakeview');
  await expect(slot(page, 'Family Medicine, First Nomination')).toHaveAccessibleDescription('Family Medicine · Northgate');
  await expect(page.getByText('Cardiology · Lakeview', { exact: true })).toBeVisible();
});

test('clears a slot whose nominee is already picked in the same sub-category', async ({ page }) => {
  await typeInto(page, 'Cardiology, First Nomination', 'jose alv');
  await options(page).filter({ hasText: 'José Álvarez-Ruiz' }).click();
  const second = await typeInto(page, 'Cardiology, Second Nomination', 'alvarez-ruiz');
  await options(page).filter({ hasText: 'José Álvarez-Ruiz' }).click();

  await expect(second).toHaveValue('');
  await expect(page.getByRole('alert').filter({ hasText: 'already' })).toHaveText('José Álvarez-Ruiz is already your First Nomination for Cardiology.');
  await expect(page.locator(`input[type=hidden][name="${CARDIOLOGY}[2]"]`)).toHaveCount(0);
  await expect(slot(page, 'Cardiology, First Nomination')).toHaveValue('José Álvarez-Ruiz');

  // The same nominee in another sub-category is fine.
  const pulmonology = await typeInto(page, 'Pulmonology, First Nomination', 'alvarez-ruiz');
  await options(page).filter({ hasText: 'José Álvarez-Ruiz' }).click();
  await expect(pulmonology).toHaveValue('José Álvarez-Ruiz');
});

test('an empty result offers the write-in section, and the link takes focus there', async ({ page }) => {
  const input = await typeInto(page, 'Family Medicine, Third Nomination', 'qwxzv');
  const footer = page.getByText("Can't find your nominee? CLICK HERE or scroll down to add.");
  await expect(footer).toBeVisible();
  await expect(options(page)).toHaveCount(0);
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('link', { name: 'CLICK HERE' }).click();

  await expect(page.getByRole('button', { name: 'Add Write-In' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Add Write-In' })).toBeInViewport();
  await expect(input).toHaveValue('');
  await expect(footer).toHaveCount(0);
});

test('finds names typed without accents, with an apostrophe or with a typo', async ({ page }) => {
  const cases: Array<[string, string]> = [
    ['jose alvarez', 'José Álvarez-Ruiz'],
    ['lukasz', 'Łukasz Kowalczyk'],
    ['siobhan obrien', "Siobhán O'Brien"],
    ['Kowalczik', 'Łukasz Kowalczyk'],
    ['benjamin castelanos', 'Benjamin Castellanos'],
  ];
  const input = slot(page, 'General Surgery, First Nomination');
  for (const [query, name] of cases) {
    await input.fill(query);
    await expect(options(page).filter({ hasText: name }).first(), query).toBeVisible();
  }
});

for (const [label, viewport] of [
  ['phone', { width: 360, height: 740 }],
  ['desktop', { width: 1280, height: 900 }],
] as const) {
  test(`has no accessibility violations with suggestions open, and fits a ${label} (${viewport.width} px)`, async ({ page }, testInfo) => {
    await page.setViewportSize(viewport);
    const input = await typeInto(page, 'Cardiology, Second Nomination', 'maria');
    await expect(options(page)).toHaveCount(12);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await input.evaluate((el) => el.scrollIntoView({ block: 'center' }));

    await expectNoAxeViolations(page);

    const box = (await page.getByRole('listbox').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: testInfo.outputPath(`suggestions-${label}.png`) });
  });
}

/** The Algolia settings the demo survey is served with in the tests below (a survey names a search-only key). */
const ALGOLIA = { algolia_app_id: 'TESTAPP01', algolia_api_key: 'search-only-key', algolia_index: 'top_doctors_2027' };
const ANONYMOUS = /^anonymous-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CORS = { 'access-control-allow-origin': '*' };

/** One Insights event as search-insights sends it. */
interface InsightsEvent {
  eventType: string;
  eventName: string;
  index: string;
  queryID: string;
  objectIDs: string[];
  positions?: number[];
  userToken: string;
}

/**
 * Serves the demo page as the build writes a survey that names an Algolia index (its keys in the
 * survey the page carries, Algolia's hosts in the page's connect-src), and stands in for
 * Algolia, which cannot be reached from here: searches are answered by the survey API's own
 * engine with a queryID added, Insights events are recorded. Returns what Algolia was sent.
 */
async function servedWithAlgolia(page: Page) {
  const sent = {
    searches: [] as Array<{ requests: Array<Record<string, unknown>> }>,
    events: [] as InsightsEvent[],
    eventUrls: [] as URL[],
    queryIDs: [] as string[],
  };
  const connect = surveyCspSources({ categories: {}, ...ALGOLIA } as never)['connect-src']!;
  await page.route(
    (url) => url.pathname === DEMO,
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      // The survey the page carries, whose search the nominations island configures, names no Algolia index yet.
      const data = 'data-survey="{';
      expect(html).toContain(data);
      expect(html).not.toContain('algolia_index');
      const keys = Object.entries(ALGOLIA).map(([key, value]) => `&quot;${key}&quot;:&quot;${value}&quot;,`);
      const body = html.replace(data, `${data}${keys.join('')}`);
      const policy = (text: string) => text.replace("connect-src 'self'", `connect-src 'self' ${connect.join(' ')}`);
      const headers: Record<string, string> = { ...response.headers(), 'content-security-policy': policy(response.headers()['content-security-policy']) };
      delete headers['content-encoding'];
      delete headers['content-length'];
      await route.fulfill({ response, headers, body: policy(body) });
    },
  );
  await page.route(/^https:\/\/testapp01-(dsn\.algolia\.net|\d\.algolianet\.com)\//i, async (route) => {
    const body = route.request().postDataJSON() as { requests: Array<Record<string, unknown>> };
    sent.searches.push(body);
    const answer = await page.request.post('/api/search/top-doctors-demo', { data: body, headers: { origin: new URL(page.url()).origin } });
    expect(answer.status(), await answer.text()).toBe(200);
    const { results } = (await answer.json()) as { results: Array<Record<string, unknown>> };
    const withIDs = results.map((result) => {
      const queryID = `q${String(sent.queryIDs.length + 1).padStart(31, '0')}`;
      sent.queryIDs.push(queryID);
      return { ...result, queryID };
    });
    await route.fulfill({ status: 200, contentType: 'application/json', headers: CORS, body: JSON.stringify({ results: withIDs }) });
  });
  await page.route('https://insights.algolia.io/**', async (route) => {
    sent.eventUrls.push(new URL(route.request().url()));
    sent.events.push(...(route.request().postDataJSON() as { events: InsightsEvent[] }).events);
    await route.fulfill({ status: 200, contentType: 'application/json', headers: CORS, body: '{"status":200,"message":"OK"}' });
  });
  return sent;
}

test.describe('with Algolia', () => {
  test('a pick sends Algolia Insights one click and one conversion event, with the hit’s objectID, position and queryID', async ({ page, context }) => {
    const sent = await servedWithAlgolia(page);
    await page.goto(DEMO);
    const input = await fillIn(page, 'Cardiology, First Nomination', 'maria');
    await expect(options(page)).toHaveCount(12);
    expect(sent.searches).toHaveLength(1);
    const [search] = sent.searches[0].requests;
    expect(search).toMatchObject({
      indexName: 'top_doctors_2027',
      query: 'maria',
      hitsPerPage: 12,
      page: 0,
      optionalFilters: ['specialty:Cardiology'],
      clickAnalytics: true,
    });
    expect(search.userToken).toMatch(ANONYMOUS);

    const names = await options(page).allTextContents();
    const position = names.findIndex((text) => text.includes('Maria Garcia') && text.includes('Lakeview Heart Institute')) + 1;
    expect(position).toBeGreaterThan(0);
    await options(page)
      .nth(position - 1)
      .click();
    await expect(input).toHaveValue('Maria Garcia');

    await expect.poll(() => sent.events.length).toBe(2);
    const common = { eventName: 'Nominee Picked', index: 'top_doctors_2027', queryID: sent.queryIDs[0], objectIDs: ['tdd-0007'], userToken: search.userToken };
    expect(sent.events).toEqual([
      expect.objectContaining({ ...common, eventType: 'click', positions: [position] }),
      expect.objectContaining({ ...common, eventType: 'conversion' }),
    ]);
    expect(sent.events[1]).not.toHaveProperty('positions');
    for (const url of sent.eventUrls) {
      expect(url.pathname).toBe('/1/events');
      expect(url.searchParams.get('X-Algolia-Application-Id')).toBe('TESTAPP01');
      expect(url.searchParams.get('X-Algolia-API-Key')).toBe('search-only-key');
    }
    // The token is made for the page and kept nowhere.
    expect(await context.cookies()).toEqual([]);

    // A second slot shares the instance: its own hint, a new queryID, and a keyboard pick is reported the same way.
    await fillIn(page, 'Pulmonology, Second Nomination', 'zoe ngu');
    await expect(options(page).first()).toBeVisible();
    expect(sent.searches.at(-1)!.requests[0]).toMatchObject({ query: 'zoe ngu', optionalFilters: ['specialty:Pulmonology'] });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => sent.events.length).toBe(4);
    expect(sent.events.slice(2).map(({ eventType, queryID, positions }) => ({ eventType, queryID, positions }))).toEqual([
      { eventType: 'click', queryID: sent.queryIDs.at(-1), positions: [1] },
      { eventType: 'conversion', queryID: sent.queryIDs.at(-1), positions: undefined },
    ]);
  });

  test('a pick refused as a duplicate, and typing alone, send no event', async ({ page }) => {
    const sent = await servedWithAlgolia(page);
    await page.goto(DEMO);
    await fillIn(page, 'Cardiology, First Nomination', 'jose alv');
    await options(page).filter({ hasText: 'José Álvarez-Ruiz' }).click();
    await expect.poll(() => sent.events.length).toBe(2);
    await fillIn(page, 'Cardiology, Second Nomination', 'alvarez-ruiz');
    await options(page).filter({ hasText: 'José Álvarez-Ruiz' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'already' })).toBeVisible();
    await fillIn(page, 'Neurosurgery, First Nomination', 'mar');
    await expect(options(page)).toHaveCount(12);
    await page.keyboard.press('Escape');
    await laterRequest(page);
    expect(sent.events.map((event) => event.eventType)).toEqual(['click', 'conversion']);
  });
});

test('without Algolia, picks send no event anywhere and no Insights code is fetched', async ({ page }) => {
  const outside = await interceptThirdParties(page);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.reload();
  const input = await fillIn(page, 'Cardiology, First Nomination', 'maria');
  await options(page).first().click();
  await expect(input).not.toHaveValue('maria');
  await laterRequest(page);
  expect(outside.map((hit) => hit.url.href)).toEqual([]);
  expect(scripts.some((path) => /insights|index-browser|algolia/.test(path))).toBe(false);
});

test('one search instance serves every slot: its code is fetched once, on first focus, and each slot sends one search with its own hint', async ({ page }) => {
  const scripts: string[] = [];
  const searches: Array<{ requests: Array<{ params: { query: string; optionalFilters?: string[] } }> }> = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    if (request.url().includes('/api/search/')) searches.push(request.postDataJSON());
  });
  await page.reload();
  await laterRequest(page);
  const searchCode = () => scripts.filter((path) => path.includes('instant-search'));
  expect(searchCode()).toEqual([]);
  await slot(page, 'Pediatrics, First Nomination').focus();
  await expect.poll(() => searchCode().length).toBe(1);
  // Starting the instance asks nothing: no search goes before the voter types.
  await laterRequest(page);
  expect(searches).toEqual([]);

  for (const [name, query] of [
    ['Pediatrics, First Nomination', 'siob'],
    ['Neurosurgery, Third Nomination', 'castel'],
    ['Pediatrics, Second Nomination', 'lukasz'],
  ] as const) {
    await fillIn(page, name, query);
    await expect(options(page).first()).toBeVisible();
    await page.keyboard.press('Escape');
  }
  expect(searches.map((body) => [body.requests[0].params.query, body.requests[0].params.optionalFilters])).toEqual([
    ['siob', ['specialty:Pediatrics']],
    ['castel', ['specialty:Neurosurgery']],
    ['lukasz', ['specialty:Pediatrics']],
  ]);
  expect(searchCode()).toHaveLength(1);
});
