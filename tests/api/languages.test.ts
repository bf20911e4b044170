import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEMO_QUERY, demoBallot, startApi, toForm, type Api, type Fields } from './helpers.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runResults } from '../support/results-cli.ts';
import { copySurveys, editSurvey } from '../support/survey-fixture.ts';

// The demo survey offers Spanish (`languages: [en, es]`): a page in Spanish sends `lang=es`, and
// the API answers it in Spanish; the ballot's option values and category keys are the same in
// either language, so both count together.

let api: Api;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.stop();
});

/** Demo ballot `n` with its email replaced, and the same nominee in every first slot. */
function ballot(n: number, changes: Record<string, string> = {}): Fields {
  return demoBallot(n).map(([name, value]) => [name, name in changes ? changes[name]! : /^nominations\[.*\]\[1\]$/.test(name) ? 'tdd-0007' : value]);
}

describe('a ballot from a page in Spanish', () => {
  test('is refused in Spanish, each field by its Spanish label; the same ballot from the English page in English', async () => {
    const wrong = ballot(1, { email: 'no-es-una-direccion' });
    const spanish = await api.post(wrong, { query: { ...DEMO_QUERY, lang: 'es' } });
    expect(spanish.status).toBe(422);
    expect(spanish.body.message).toBe('Algunas respuestas necesitan otra revisión.');
    expect(spanish.body.problems).toEqual([
      { path: 'email', message: 'Correo electrónico: la dirección no es válida. Escriba una dirección como nombre@ejemplo.org.' },
    ]);

    const english = await api.post(wrong, { query: DEMO_QUERY });
    expect(english.body.message).toBe('Some answers need another look.');
    expect(english.body.problems).toEqual([{ path: 'email', message: 'Email is not valid. Enter an address like name@example.org.' }]);
  });

  test('sent without JavaScript, goes on to the Spanish thank-you page', async () => {
    const answer = await api.request(`/api/survey?${new URLSearchParams({ ...DEMO_QUERY, lang: 'es' })}`, {
      method: 'POST',
      body: toForm(ballot(2)),
      headers: { Accept: 'text/html', Origin: api.url },
      redirect: 'manual',
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${api.url}/es/top-doctors-demo/thankyou`);
  });

  test('with a problem and without JavaScript, gets the problems page in Spanish', async () => {
    const answer = await api.post(ballot(3, { 'name-last': '' }), { query: { ...DEMO_QUERY, lang: 'es' }, headers: { Accept: 'text/html', Origin: api.url } });
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('<html lang="es">');
    expect(answer.body).toContain('<h2>Hay un problema</h2>');
    expect(answer.body).toContain('<li>Apellidos: este campo es obligatorio.</li>');
  });

  test('counts with the English ones: a nominee named on both', async () => {
    // Ballots 0 and 8 name the same sub-categories; 2, above, did too and was stored.
    expect((await api.post(ballot(0), { query: DEMO_QUERY })).status).toBe(201);
    expect((await api.post(ballot(8), { query: { ...DEMO_QUERY, lang: 'es' } })).status).toBe(201);
    const { code, stdout, stderr } = await runResults(['tally', 'top-doctors-demo', '--quiet'], {
      SURVEYS_DIR: inject('surveysDir'),
      DATA_DIR: api.dataDir,
      DATABASE_URL: api.databaseUrl,
    });
    expect(code, stderr).toBe(0);
    const familyMedicine = stdout.split(/\r?\n/).find((line) => line.startsWith('Primary Care,Family Medicine,') && line.includes(',tdd-0007,'));
    expect(familyMedicine?.split(',')[6]).toBe('3');
  });
});

describe('an invitation', () => {
  test('to a person whose roster language is es is in Spanish, with the /es/ personal link; to another, in English', async () => {
    // A copy of the surveys whose demo keeps the roster's language column with each person.
    const surveys = copySurveys();
    editSurvey(surveys, 'top-doctors-demo', ['roster_columns'], ['language']);
    const roster = path.join(surveys, 'roster.csv');
    writeFileSync(roster, 'email,name-first,name-last,language\nana@example.org,Ana,García,es\nbob@example.org,Bob,Smith,en\n');
    const env = { SURVEYS_DIR: surveys, DATA_DIR: api.dataDir, DATABASE_URL: api.databaseUrl };
    const invited = await runResults(['invite', 'top-doctors-demo', '--roster', roster, '--base-url', 'https://vote.example.org'], env);
    expect(invited.code, invited.stderr).toBe(0);

    const ana = await runResults(['send', 'top-doctors-demo', 'invitations', '--preview', 'ana@example.org', '--base-url', 'https://vote.example.org'], env);
    expect(ana.code, ana.stderr).toBe(0);
    expect(ana.stdout).toContain('Subject: Top Doctors 2027: ¿a quién enviaría a su propia familia?');
    expect(ana.stdout).toMatch(/\[Abra su papeleta\]\(https:\/\/vote\.example\.org\/es\/top-doctors-demo\/[\w-]+\)/);
    expect(ana.stdout).toContain('La votación cierra el 31 de diciembre de 2099.');
    expect(ana.stdout).toContain('Recibe este mensaje porque está invitado a votar en Top Doctors 2027.');

    const bob = await runResults(['send', 'top-doctors-demo', 'invitations', '--preview', 'bob@example.org', '--base-url', 'https://vote.example.org'], env);
    expect(bob.stdout).toContain('Subject: Top Doctors 2027: who would you send your own family to?');
    expect(bob.stdout).toMatch(/\[Open your ballot\]\(https:\/\/vote\.example\.org\/top-doctors-demo\/[\w-]+\)/);
  });
});
