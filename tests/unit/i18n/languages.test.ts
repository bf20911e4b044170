import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { create } from 'superstruct';
import { m, renderIn } from '../../../src/i18n/messages.ts';
import { catalogueGaps, shippedLocales } from '../../../src/i18n/catalogue.ts';
import { pseudoCatalogue, pseudoText } from '../../../src/i18n/pseudo.ts';
import { SurveyConfig } from '../../../src/survey/config/config.struct.ts';
import { SHIPPED_LANGUAGES, localizeSurvey, surveyPath, translationGaps, withPseudoLocale } from '../../../src/survey/config/translations.ts';
import { tileViews } from '../../../src/survey/ballots/tiles.ts';
import { escapedWords, unmarked } from '../../support/pseudo-locale.ts';
import { fieldMessages } from '../../../src/survey/ballots/field-messages.ts';
import { voteRequirementMessage } from '../../../src/survey/ballots/votes.ts';
import { checkSurveys } from '../../../src/survey/config/survey-check.ts';
import { campaignMessages } from '../../../src/results/delivery/send.ts';

afterEach(() => renderIn('en'));

describe('the catalogue', () => {
  it('says a count in Spanish with its plural: one nombre, two nombres', () => {
    renderIn('es');
    expect(voteRequirementMessage(1)).toBe('Debe escribir al menos 1 nombre para enviar este formulario.');
    expect(voteRequirementMessage(2)).toBe('Debe escribir al menos 2 nombres para enviar este formulario.');
    expect(m.write_in_limit_note({ count: 1 })).toBe('Ha alcanzado el límite de 1 candidatura libre.');
    expect(m.write_in_limit_note({ count: 10 })).toBe('Ha alcanzado el límite de 10 candidaturas libres.');
  });

  it("keeps the English words of docs/spec.md, the singular 'name' at one", () => {
    expect(voteRequirementMessage(1)).toBe('You must fill out at least 1 name to submit this form.');
    expect(voteRequirementMessage(3)).toBe('You must fill out at least 3 names to submit this form.');
    expect(m.state_invalid_text()).toBe('Sorry, this link is invalid! Please use your custom link to access your survey form.');
  });

  it('formats numbers and lists for the language', () => {
    const field = { name: 'bio', label: 'Bio', type: 'file' as const };
    expect(fieldMessages.maxLength({ ...field, type: 'textarea' }, 2000)).toBe('Bio must be 2,000 characters or fewer.');
    expect(fieldMessages.fileType(field, ['application/pdf', 'image/png', 'image/jpeg'])).toBe('Bio must be a PDF, PNG or JPEG file.');
    renderIn('es');
    expect(fieldMessages.maxLength({ ...field, type: 'textarea' }, 20000)).toBe('Bio: como máximo 20.000 caracteres.');
    expect(fieldMessages.fileType(field, ['application/pdf', 'image/png', 'image/jpeg'])).toBe('Bio: el archivo debe ser PDF, PNG o JPEG.');
  });

  it('ships the languages a survey may offer', () => {
    expect(shippedLocales()).toEqual([...SHIPPED_LANGUAGES]);
  });

  it('names each message a shipped language lacks, and the language', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'catalogue-'));
    mkdirSync(path.join(root, 'project.inlang'));
    mkdirSync(path.join(root, 'src/i18n/messages'), { recursive: true });
    writeFileSync(path.join(root, 'project.inlang/settings.json'), JSON.stringify({ baseLocale: 'en', locales: ['en', 'es'] }));
    writeFileSync(path.join(root, 'src/i18n/messages/en.json'), JSON.stringify({ submit: 'Submit', back: 'Back' }));
    writeFileSync(path.join(root, 'src/i18n/messages/es.json'), JSON.stringify({ submit: 'Enviar', extra: 'Más' }));
    expect(catalogueGaps(root)).toEqual(['es: `back` is missing (src/i18n/messages/es.json)', 'es: `extra` is not in en (src/i18n/messages/en.json)']);
    expect(catalogueGaps()).toEqual([]);
  });
});

const survey = create(
  {
    project_id: 'two-languages',
    survey_title: 'Top Doctors',
    rules: ['One ballot each.'],
    languages: ['en', 'es'],
    categories: { 'Primary Care': ['Pediatrics'] },
    layout: [[{ name: 'setting', type: 'radio', label: 'Setting', options: ['Hospital', 'Clinic'] }]],
    translations: {
      es: { survey_title: 'Mejores médicos', categories: { 'Primary Care': 'Atención primaria' }, fields: { setting: { options: { Clinic: 'Clínica' } } } },
    },
  },
  SurveyConfig,
);

describe("a survey's texts in a further language", () => {
  it('come from translations.<lang>, the option values and category keys unchanged', () => {
    const es = localizeSurvey(survey, 'es');
    expect(es.survey_title).toBe('Mejores médicos');
    expect(es.category_labels).toEqual({ 'Primary Care': 'Atención primaria' });
    expect(es.categories).toEqual(survey.categories);
    expect(es.layout[0]![0]).toMatchObject({ options: ['Hospital', 'Clinic'], option_labels: { Clinic: 'Clínica' }, label: 'Setting' });
    expect(localizeSurvey(survey, 'en')).toBe(survey);
  });

  it('fall back to the default language, each gap listed by its key path', () => {
    expect(localizeSurvey(survey, 'es').rules).toEqual(['One ballot each.']);
    expect(translationGaps(survey).map((gap) => gap.path)).toEqual([
      'translations.es.rules',
      'translations.es.categories.Pediatrics',
      'translations.es.fields.setting.label',
      'translations.es.fields.setting.options.Hospital',
    ]);
  });

  it('live under /{lang}/ in a further language, at the plain address in the default', () => {
    expect(surveyPath({ slug: 'top', languages: ['en', 'es'] }, 'es', 'thankyou')).toBe('/es/top/thankyou');
    expect(surveyPath({ slug: 'top', languages: ['en', 'es'] }, 'en')).toBe('/top/');
  });

  it('are warnings of the check, with file and key path, and errors with strict_translations', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'surveys-'));
    const write = (strict: boolean) => {
      mkdirSync(path.join(dir, 'two'), { recursive: true });
      writeFileSync(path.join(dir, 'site.yaml'), 'default_survey: two\n');
      writeFileSync(
        path.join(dir, 'two/survey.yaml'),
        [
          'project_id: two',
          'survey_title: Two',
          'languages: [en, es]',
          `strict_translations: ${strict}`,
          'categories: { Care: [Pediatrics] }',
          'layout: [[{ name: motto, type: text }]]',
          'translations:',
          '  es:',
          '    categories: { Care: Cuidados, Pediatrics: Pediatría }',
          '',
        ].join('\n'),
      );
    };
    write(false);
    const loose = checkSurveys(dir);
    expect(loose.problems).toEqual([]);
    expect(loose.warnings.map((warning) => [path.basename(warning.file), warning.path])).toEqual([['survey.yaml', 'translations.es.survey_title']]);
    write(true);
    const strict = checkSurveys(dir);
    expect(strict.problems.map((problem) => [problem.path, problem.message])).toEqual([
      ['translations.es.survey_title', "survey_title is not translated: the page shows the default language's"],
    ]);
    expect(strict.warnings).toEqual([]);
  });
});

describe('the pseudo-locale en-XA', () => {
  it('accents and lengthens a text between markers, its placeholders and tags kept', () => {
    expect(pseudoText('Submit')).toBe('⟦Šûƀɱîţ ··⟧');
    expect(pseudoText('<p>Thank you for taking part in {title}.</p>')).toBe('⟦<p>Ţĥâñķ ýöû ƒöŕ ţâķîñĝ þâŕţ îñ {title}.</p> ·······⟧');
  });

  it('makes the whole English catalogue, every key and plural variant, with no plain word of four letters left', () => {
    const english = JSON.parse(readFileSync('src/i18n/messages/en.json', 'utf8')) as Record<string, unknown>;
    const pseudo = pseudoCatalogue(english as Parameters<typeof pseudoCatalogue>[0]);
    expect(Object.keys(pseudo)).toEqual(Object.keys(english).filter((key) => key !== '$schema'));
    const patterns = Object.values(pseudo).flatMap((message) =>
      typeof message === 'string' ? [message] : message.flatMap((variant) => Object.values(variant.match)),
    );
    const plain = patterns.map((pattern) => pattern.replace(/\{[^}]*\}|<[^>]*>/g, '')).filter((pattern) => /[A-Za-z]{4}/.test(pattern));
    expect(plain).toEqual([]);
  });

  const survey = create(
    {
      project_id: 'pseudo',
      survey_title: 'Top Doctors',
      languages: ['en', 'es'],
      rules: ['One ballot per physician.'],
      categories: { Care: ['Pediatrics'] },
      faces: ['Cardiology'],
      faces_past_participants: ['Dr. Ada Lovelace'],
      layout: [[{ name: 'setting', type: 'radio', label: 'Practice setting', options: ['Hospital'] }], [{ name: 'faces', type: 'faces' }]],
    },
    SurveyConfig,
  );

  it('is offered by a survey in English and another language, every text of its translation made from the English', () => {
    const offered = withPseudoLocale(survey, { invitation: { subject: 'Vote: {{survey_title}}', body: 'Dear {{name}},' } });
    expect(offered.languages).toEqual(['en', 'es', 'en-XA']);
    expect(translationGaps({ ...offered, languages: ['en', 'en-XA'] })).toEqual([]);
    const xa = localizeSurvey(offered, 'en-XA');
    expect(xa.survey_title).toBe(pseudoText('Top Doctors'));
    expect(xa.rules).toEqual([pseudoText('One ballot per physician.')]);
    expect(xa.category_labels).toEqual({ Care: pseudoText('Care'), Pediatrics: pseudoText('Pediatrics') });
    expect(xa.layout[0]![0]!.option_labels).toEqual({ Hospital: pseudoText('Hospital') });
    expect(tileViews(xa, 'faces')).toEqual([{ slug: 'cardiology', title: pseudoText('Cardiology'), taken: false }]);
    expect(xa.faces_past_participants).toEqual([pseudoText('Dr. Ada Lovelace')]);
    expect(offered.translations?.['en-XA']?.mail?.invitation).toEqual({ subject: pseudoText('Vote: {{survey_title}}'), body: pseudoText('Dear {{name}},') });
  });

  it('is not offered by a survey in one language, nor in another default language', () => {
    expect(withPseudoLocale({ ...survey, languages: ['en'] }, {}).languages).toEqual(['en']);
    expect(withPseudoLocale({ ...survey, languages: ['es', 'en'] }, {}).languages).toEqual(['es', 'en']);
  });

  it("has its tests' check find each plain word outside the markers, nested ones included, and nothing else", () => {
    expect(unmarked(`${pseudoText('Vote in')} ${pseudoText('Top Doctors')} now`).trim()).toBe('now');
    expect(unmarked(pseudoText(`Vote in ${pseudoText('Top Doctors')} now`)).trim()).toBe('');
    expect(unmarked(`Vote${pseudoText('in')}now`)).toBe('Vote now');
    expect(unmarked('⟦Þŕîɱâŕý Çâŕé ·…\nPowered by').split('\n')).toEqual([' ', 'Powered by']);
    const found = escapedWords(
      [
        {
          where: 'a page',
          text: `${pseudoText('Submit')} Submit · José Álvarez-Ruiz · December 31, 2099 · https://vote.example.org/en-XA/demo · 7K3M-Q9TD-2XHB`,
        },
      ],
      ['José Álvarez-Ruiz'],
    );
    expect(found).toEqual([{ word: 'Submit', where: 'a page', line: expect.stringContaining('Submit') }]);
  });
});

describe('an invitation in the roster language of its person', () => {
  const config = create(
    {
      project_id: 'invited',
      survey_title: 'Top Doctors',
      expiration_date: '2027-03-31',
      languages: ['en', 'es'],
      roster_columns: ['language'],
      categories: { Care: ['Pediatrics'] },
      layout: [[{ name: 'motto', type: 'text' }]],
      translations: { es: { survey_title: 'Mejores médicos', mail: { invitation: { subject: 'Su invitación: {{survey_title}}' } } } },
    },
    SurveyConfig,
  );
  const survey = { slug: 'invited', dir: mkdtempSync(path.join(tmpdir(), 'invited-')), config };
  const messageOf = campaignMessages(survey, 'invitation', 'https://vote.example.org');
  const to = (language: string) => ({
    secret: 'S3cret',
    person: { email: 'ana@example.org', name: 'Ana', language },
    address: 'ana@example.org',
    key: 'ana@example.org',
  });

  it('goes in Spanish, with the /es/ personal link, to a person whose language is es', () => {
    const { mail, unsubscribeUrl } = messageOf(to('es'), 'token');
    expect(mail.subject).toBe('Su invitación: Mejores médicos');
    expect(unsubscribeUrl).toBe('https://vote.example.org/api/unsubscribe/token?lang=es');
    expect(mail.text).toContain('https://vote.example.org/es/invited/S3cret');
    expect(mail.text).toContain('31 de marzo de 2027');
    expect(mail.text).toContain('Recibe este mensaje porque está invitado a votar en Mejores médicos.');
  });

  it("writes its closing day in the survey's time zone", () => {
    const late = { ...survey, config: { ...config, expiration_date: '2027-04-01T02:00:00Z', time_zone: 'America/New_York' } };
    expect(campaignMessages(late, 'invitation', 'https://vote.example.org')(to('en'), 'token').mail.text).toContain('March 31, 2027');
    expect(() => create({ ...config, time_zone: 'Mars/Olympus' }, SurveyConfig)).toThrow('expected an IANA time zone');
  });

  it("reads the roster's language without regard to case", () => {
    expect(messageOf(to('ES'), 'token').mail.subject).toBe('Su invitación: Mejores médicos');
    expect(messageOf(to('ES'), 'token').mail.html).toContain('<html lang="es">');
  });

  it('goes in the default language to anyone else, as before', () => {
    const { mail, unsubscribeUrl } = messageOf(to('fr'), 'token');
    expect(unsubscribeUrl).toBe('https://vote.example.org/api/unsubscribe/token');
    expect(mail.subject).toBe('Your invitation to vote: Top Doctors');
    expect(mail.text).toContain('https://vote.example.org/invited/S3cret');
    expect(mail.text).toContain('March 31, 2027');
    expect(mail.text).toContain('You receive this message because you are invited to vote in Top Doctors.');
  });
});
