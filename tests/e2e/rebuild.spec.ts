import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { fillVoter, nominate, voter } from './ballot-helpers.ts';
import { ROOT, startServer } from '../support/server.mjs';

// `npm run build` while the server runs is a deploy: this file serves a copy of the suite's
// build on a copy of the surveys, adds a survey (with a nominee of its own) and builds again into
// the same folder, and a voter then searches, reserves and votes on the new survey with no restart.
const OUT_DIR = 'dist-e2e/rebuild';

function build(surveysDir: string): void {
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', OUT_DIR], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', SURVEYS_DIR: surveysDir },
    stdio: 'pipe',
  });
}

test.describe('a build while the server runs', () => {
  test.describe.configure({ mode: 'serial' });
  let server: Awaited<ReturnType<typeof startServer>>;
  let surveys: string;
  let dataDir: string;

  test.beforeAll(async () => {
    surveys = mkdtempSync(path.join(tmpdir(), 'peervote-rebuild-surveys-'));
    dataDir = mkdtempSync(path.join(tmpdir(), 'peervote-rebuild-data-'));
    cpSync(path.join(ROOT, 'surveys'), surveys, { recursive: true });
    // What a build of the copied surveys would write: the suite's own build, built from the same surveys.
    rmSync(path.join(ROOT, OUT_DIR), { recursive: true, force: true });
    cpSync(path.join(ROOT, 'dist'), path.join(ROOT, OUT_DIR), { recursive: true });
    server = await startServer({
      env: { PEERVOTE_DIST: OUT_DIR, SURVEYS_DIR: surveys, DATA_DIR: dataDir, RATE_LIMIT_MAX: '0' },
      ports: { base: Number(process.env.E2E_PORT ?? 4322) + 1, span: 20 },
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(surveys, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a new survey takes searches, reservations and ballots at once', async ({ page, request }) => {
    test.setTimeout(240_000);
    const folder = path.join(surveys, 'peer-awards');
    cpSync(path.join(surveys, 'top-doctors-demo'), folder, { recursive: true });
    const file = path.join(folder, 'survey.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('project_id: top-doctors-demo', 'project_id: peer-awards')
        .replace('survey_title: Top Doctors 2027', 'survey_title: Peer Awards 2028'),
    );
    appendFileSync(path.join(folder, 'nominees.csv'), 'pa-0001,Quentin Rebuildsworth,Cardiology,Riverside,Riverside Heart Institute\n');
    build(surveys);

    await page.goto(`${server.url}/peer-awards/`);
    await expect(page.getByRole('banner').getByRole('heading', { name: 'Peer Awards 2028' })).toBeVisible();
    await fillVoter(page, voter('rebuild'));
    await nominate(page, 'Cardiology, First Nomination', 'rebuildsw', 'Quentin Rebuildsworth');
    const tiles = page.getByRole('radiogroup', { name: 'Reserve Your Faces Specialty' });
    await tiles.scrollIntoViewIfNeeded();
    // The section's island loads as it comes near the screen; Astro drops `ssr` once it has hydrated.
    await expect(page.locator('astro-island[ssr]', { has: tiles })).toHaveCount(0);
    await tiles.getByRole('radio', { name: 'THE FACE OF Cardiology' }).check();
    await page.getByRole('checkbox', { name: 'I Affirm' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL(`${server.url}/peer-awards/thankyou`);

    const faces = await (await request.get(`${server.url}/api/survey/faces/peer-awards`)).json();
    expect(faces.taken).toContain('cardiology');
    const stats = await (await request.get(`${server.url}/api/survey/stats/peer-awards`)).json();
    expect(stats).toMatchObject({ project_id: 'peer-awards', ballots: 1 });
  });
});
