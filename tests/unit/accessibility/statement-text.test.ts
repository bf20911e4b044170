import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statementText } from '../../../src/accessibility/statement-text.ts';
import { catalogueGaps, compileCatalogue, shippedLocales } from '../../../src/i18n/catalogue.ts';
import { localeOf, renderIn } from '../../../src/i18n/messages.ts';

// The accessibility statement's words come from the message catalogue: complete in every language
// the product ships, or the build fails naming each missing message.

afterEach(() => renderIn('en'));

/** Every sentence of a statement, in the order the page shows them (the links' text and parts included). */
function sentences(text: ReturnType<typeof statementText>): string[] {
  return Object.values(text).flatMap((value) => (Array.isArray(value) ? value.flatMap((item) => (typeof item === 'string' ? item : item.name)) : value));
}

describe('the statement’s words', () => {
  it('keep the English of GOV.UK’s sample and the date written out for the language', () => {
    const text = statementText('Top Doctors 2027', 'Peervote');
    expect(text.heading).toBe('Accessibility statement for Top Doctors 2027');
    expect(text.enforcementHeading).toBe('Enforcement procedure');
    expect(text.reporting).toEqual([
      'We are always looking to improve the accessibility of this survey. If you find a problem not listed on this page, or think we are not meeting accessibility requirements, write to ',
      '.',
    ]);
    expect(text.preparation).toBe('This statement was prepared on 28 November 2026. It was last reviewed on 28 November 2026.');
  });

  it('are all in Spanish for a Spanish page, none of them left as the English', () => {
    const english = sentences(statementText('Top Doctors 2027', 'Peervote'));
    renderIn('es');
    const text = statementText('Top Doctors 2027', 'Peervote');
    expect(text.heading).toBe('Declaración de accesibilidad de Top Doctors 2027');
    expect(text.status[0]).toBe('Este sitio web cumple parcialmente el nivel AA de las ');
    expect(text.preparation).toBe('Esta declaración se preparó el 28 de noviembre de 2026. Se revisó por última vez el 28 de noviembre de 2026.');
    const spanish = sentences(text);
    expect(spanish).toHaveLength(english.length);
    // The link parts around an address that end a sentence ('.') are the same in both languages.
    const same = spanish.filter((sentence, at) => sentence === english[at] && sentence.replace(/[.\s]/g, '') !== '');
    expect(same).toEqual([]);
  });

  it('fall back to the default language for a language the product does not ship', () => {
    renderIn(localeOf('fr'));
    expect(statementText('Top Doctors 2027', 'Peervote').heading).toBe('Accessibility statement for Top Doctors 2027');
  });

  it('no longer list the name and phone fields as failing WCAG 1.3.5 in any language', () => {
    for (const locale of shippedLocales()) {
      renderIn(localeOf(locale));
      expect(sentences(statementText('S', 'P')).join('\n')).not.toMatch(/1\.3\.5|autocomplete|phone number|teléfono y/);
    }
  });
});

describe('a shipped language without the statement', () => {
  /** The project's catalogue in a folder of its own, with `drop` taken out of Spanish. */
  function catalogueWithout(drop: string[]): string {
    const root = mkdtempSync(path.join(tmpdir(), 'peervote-catalogue-'));
    cpSync('project.inlang/settings.json', path.join(root, 'project.inlang/settings.json'));
    cpSync('src/i18n/messages', path.join(root, 'src/i18n/messages'), { recursive: true });
    const file = path.join(root, 'src/i18n/messages/es.json');
    const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const key of drop) delete messages[key];
    writeFileSync(file, JSON.stringify(messages));
    return root;
  }

  it('fails the build, naming each message it lacks and the file', async () => {
    const root = catalogueWithout(['statement_heading', 'statement_non_compliant_1']);
    expect(catalogueGaps(root)).toEqual([
      'es: `statement_heading` is missing (src/i18n/messages/es.json)',
      'es: `statement_non_compliant_1` is missing (src/i18n/messages/es.json)',
    ]);
    await expect(compileCatalogue(root)).rejects.toThrow(
      'The message catalogue is incomplete:\nes: `statement_heading` is missing (src/i18n/messages/es.json)',
    );
  });

  it('is not the project: every shipped language has every statement message', () => {
    const english = Object.keys(JSON.parse(readFileSync('src/i18n/messages/en.json', 'utf8'))).filter((key) => key.startsWith('statement_'));
    expect(english.length).toBeGreaterThan(40);
    expect(catalogueGaps().filter((gap) => gap.includes('statement_'))).toEqual([]);
  });
});
