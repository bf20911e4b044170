import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './fixtures.ts';
import { nominate, voter } from './ballot-helpers.ts';
import { islandsHydrated } from './waits.ts';

// The demo survey in Spanish (`languages: [en, es]`): its texts from translations.es, the
// product's own words from the catalogue's es.json, the API's answers in the page's language.

test('a Spanish ballot: a mistake said in Spanish in the summary and under the field, then sent, thanked and its receipt checked', async ({ page }) => {
  const who = voter('es');
  await page.goto('/es/top-doctors-demo/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page).toHaveTitle('Top Doctors 2027');
  await expect(page.getByRole('heading', { name: 'Normas de participación' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Nombre (obligatorio)' }).fill(who.first);
  await page.getByRole('textbox', { name: 'Apellidos' }).fill(who.last);
  await page.getByRole('combobox', { name: 'Titulación médica' }).selectOption('MD');
  await page.getByRole('textbox', { name: 'Número de colegiado' }).fill('MD-100200');
  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill('no-es-una-direccion');
  await page.getByRole('textbox', { name: 'Consulta médica' }).fill(who.practice);
  await page.getByRole('radio', { name: 'Consulta privada' }).check();
  await nominate(page, 'Cardiología, Primera nominación', 'esposito', 'Mark Q. Esposito-González');
  await page.getByRole('checkbox', { name: 'Lo afirmo' }).check();
  await page.getByRole('button', { name: 'Enviar' }).click();

  const mistake = 'Correo electrónico: la dirección no es válida. Escriba una dirección como nombre@ejemplo.org.';
  const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Hay un problema' }) });
  await expect(summary.getByRole('link', { name: mistake })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Correo electrónico' })).toHaveAccessibleDescription(mistake);
  await expectNoAxeViolations(page);

  await page.getByRole('textbox', { name: 'Correo electrónico' }).fill(who.email);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page).toHaveURL(/\/es\/top-doctors-demo\/thankyou$/);
  await expect(page.getByRole('heading', { name: 'Gracias' })).toBeVisible();
  await expect(page.getByText('Hemos recibido su papeleta.')).toBeVisible();
  // The page writes the receipt as its script reads the answer: read it once it is there.
  await expect(page.locator('[data-receipt-code]')).toHaveText(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  const code = (await page.locator('[data-receipt-code]').textContent())!;
  await expectNoAxeViolations(page);

  await page.getByRole('link', { name: 'comprobación del recibo' }).click();
  await expect(page).toHaveURL(/\/es\/top-doctors-demo\/receipt\?code=/);
  await expect(
    page.getByText(new RegExp(`^Su papeleta con el recibo ${code} se recibió el \\d+ de \\w+ de \\d{4} a las \\d{1,2}:\\d{2} UTC\\.$`)),
  ).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the language switch is a link that keeps the answers typed so far and the field the voter was in', async ({ page }) => {
  await page.goto('/top-doctors-demo/');
  // The ballot's scripts have run: until then the switch is a plain link, and the answers stay behind.
  await islandsHydrated(page);
  await page.getByRole('textbox', { name: 'First name' }).fill('Ada');
  await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.org');
  await page.getByRole('textbox', { name: 'Email' }).focus();
  const switchTo = page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Español' });
  await expect(switchTo).toHaveAttribute('href', '/es/top-doctors-demo/');
  await switchTo.click();

  await expect(page).toHaveURL(/\/es\/top-doctors-demo\/#field-email$/);
  await expect(page.getByRole('textbox', { name: 'Nombre (obligatorio)' })).toHaveValue('Ada');
  await expect(page.getByRole('textbox', { name: 'Correo electrónico' })).toHaveValue('ada@example.org');
  await expect(page.getByRole('textbox', { name: 'Correo electrónico' })).toBeFocused();
  await expect(page.getByRole('navigation', { name: 'Idioma' }).getByRole('link', { name: 'English' })).toBeVisible();
});

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('the Spanish form posts, and its problems page is in Spanish', async ({ page }) => {
    await page.goto('/es/top-doctors-demo/');
    await page.getByRole('textbox', { name: 'Nombre (obligatorio)' }).fill('Ada');
    await page.getByRole('button', { name: 'Enviar' }).click();

    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { name: 'Hay un problema' })).toBeVisible();
    await expect(page.getByText('sus respuestas siguen ahí', { exact: false })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Apellidos: este campo es obligatorio.' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Marque «Lo afirmo» para confirmar las declaraciones anteriores.' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Abrir una papeleta nueva' })).toHaveAttribute('href', '/es/top-doctors-demo/');
  });
});
