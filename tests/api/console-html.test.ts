import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { ConsoleBrowser, operatorsYaml, startConsole, type ConsoleServer } from './console-helpers.ts';
import { nuHtmlErrors } from '../support/nu-html.ts';
import { demoBallot } from './helpers.ts';
import { writeInGroupId } from '../../src/server/intake/write-in-counts.repository.ts';

// Every page of the console as the server writes it, for a signed-in owner and for no one, is
// valid HTML by the Nu HTML checker (the built pages are checked by `npm run test:html`; these are
// written at each request, so they are fetched here and checked the same way). The pages' markup
// is the same on either database, and the checker's Java takes seconds: it runs on SQLite alone.

describe.skipIf(Boolean(inject('databaseUrl')))('the console pages', () => {
  let server: ConsoleServer;
  let work: string;
  const OWNER = 'owner@metrohealth.example';

  beforeAll(async () => {
    server = await startConsole(operatorsYaml({ [OWNER]: { '*': 'owner' }, 'auditor@metrohealth.example': { 'top-doctors-demo': 'auditor' } }));
    work = mkdtempSync(path.join(tmpdir(), 'peervote-console-html-'));
  });
  afterAll(async () => {
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('every console page, signed in and not, has no error by the Nu HTML checker', async () => {
    const visitor = new ConsoleBrowser(server);
    const pages: Record<string, string> = {};
    const keep = async (name: string, browser: ConsoleBrowser, pathname: string, status = 200) => {
      const answer = await browser.page(pathname);
      expect(answer.status, `${pathname}: ${String(answer.body).slice(0, 300)}`).toBe(status);
      expect(answer.headers.get('content-type')).toContain('text/html');
      pages[name] = answer.body;
    };
    await keep('sign-in', visitor, '/console/sign-in');
    const link = await server.link('auditor@metrohealth.example');
    const enrolPath = new URL(link).pathname;
    await keep('enrol', visitor, enrolPath);
    await keep('enrol-unknown', visitor, '/console/enrol/no-such-token', 404);
    const auditor = new ConsoleBrowser(server);
    expect((await auditor.enrol(link)).status).toBe(201);

    const owner = new ConsoleBrowser(server);
    const ownerLink = await server.link(OWNER);
    expect((await owner.enrol(ownerLink)).status).toBe(201);
    await owner.readCsrf();
    await keep('enrol-used', visitor, new URL(ownerLink).pathname, 410);
    await keep('surveys', owner, '/console/');
    await keep('survey', owner, '/console/top-doctors-demo/');
    await keep('audit', owner, '/console/top-doctors-demo/audit/');
    await keep('audit-filtered', owner, '/console/top-doctors-demo/audit/?action=operator_link');
    await keep('operators', owner, '/console/operators/');
    await keep('operators-audit', owner, '/console/operators/audit/');
    await keep('sessions', owner, '/console/sessions/');
    // The write-ins page: a group of two spellings waiting, another attached, and the nominee search on the first.
    for (const [n, spelling] of ['Dr. Quentin Marsh', 'QUENTIN MARSH, MD', 'Mona Vale'].entries()) {
      const sent = await server.api.post(
        demoBallot(4000 + n).map(([name, value]) => [name, name === 'writeins[0][name]' ? spelling : value] as [string, string]),
      );
      expect(sent.status).toBe(201);
    }
    const group = (name: string) => ({ category: 'Surgery / Neurosurgery', name, reason: 'checked' });
    expect((await owner.post('/api/console/surveys/top-doctors-demo/write-ins/attach', { ...group('Mona Vale'), nominee: 'tdd-1169' })).status).toBe(200);
    await keep('write-ins', owner, '/console/top-doctors-demo/write-ins/');
    await keep('write-ins-search', owner, `/console/top-doctors-demo/write-ins/?group=${writeInGroupId('Surgery', 'Neurosurgery', 'quentin marsh')}&q=Hannah`);
    await keep('results', owner, '/console/top-doctors-demo/results/');
    expect([200, 202]).toContain((await owner.post('/api/console/surveys/top-doctors-demo/results/count')).status);
    await expect
      .poll(async () => String((await owner.page('/console/top-doctors-demo/results/')).body).includes('Standings'), { timeout: 30_000, interval: 100 })
      .toBe(true);
    await keep('results-counted', owner, '/console/top-doctors-demo/results/?done=counted');
    await keep('results-closed', owner, '/console/best-dentists-2024/results/');
    await keep('results-forbidden', auditor, '/console/top-doctors-demo/results/', 403);
    await keep('not-found', owner, '/console/no-such-survey/', 404);
    await keep('mail', owner, '/console/top-doctors-demo/mail/?preview=invitations&dry-run=invitations&status=sent');
    await keep('mail-imported', owner, '/console/top-doctors-demo/mail/?imported=1&reports=2&bounced=1');
    await keep('mail-forbidden', auditor, '/console/top-doctors-demo/mail/', 403);
    await keep('write-ins-forbidden', auditor, '/console/top-doctors-demo/write-ins/', 403);
    await keep('refused-forbidden', auditor, '/console/top-doctors-demo/refused/', 403);
    await keep('survey-auditor', auditor, '/console/top-doctors-demo/');

    const files = Object.entries(pages).map(([name, html]) => {
      const file = path.join(work, `${name}.html`);
      writeFileSync(file, html);
      return file;
    });
    const { errors } = await nuHtmlErrors(files);
    expect(errors).toEqual([]);
  }, 60_000);
});
