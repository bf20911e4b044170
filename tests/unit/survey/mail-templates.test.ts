import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { closesInWords, loadMailTemplate, loadMailTemplates, parseMailTemplate } from '../../../src/survey/mail/mail-templates.ts';
import { compileMail } from '../../../src/mail/render.ts';
import { ConfigError } from '../../../src/survey/errors.ts';

const problemsOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('mail templates', () => {
  it.each([
    [
      'an unknown placeholder, by line and column',
      '---\nsubject: Hi\n---\nDear {{name}},\n\n{{url}} {{secret}}\n',
      'invitation',
      [6, 9, 'body'],
      /unknown placeholder \{\{secret\}\}/,
    ],
    [
      'an unknown placeholder in the subject',
      '---\nsubject: Hi {{nome}}\n---\n{{url}}\n',
      'invitation',
      [2, 13, 'subject'],
      /unknown placeholder \{\{nome\}\}/,
    ],
    ['an invitation without {{url}}', '---\nsubject: Hi\n---\nDear {{name}}\n', 'invitation', [4, 1, 'body'], /must carry \{\{url\}\}/],
    ['no subject', 'Dear {{name}} {{url}}\n', 'invitation', [1, 1, 'subject'], /subject/],
    ['an unclosed front matter', '---\nsubject: Hi\nDear {{name}} {{url}}\n', 'reminder', [1, 1, 'front matter'], /no "---" line closes/],
    ['an unknown front matter line', '---\nsubject: Hi\nfrom: x@y.z\n---\n{{url}}\n', 'reminder', [3, 1, 'front matter'], /front matter/],
  ] as const)('stop on %s', (_what, text, kind, [line, column, where], message) => {
    const [problem, ...rest] = problemsOf(() => parseMailTemplate(kind, 'surveys/x/mail/t.md', text));
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ file: 'surveys/x/mail/t.md', line, column, path: where });
    expect(problem.message).toMatch(message);
  });

  it('reads a survey folder, falling back to the built-in default of each kind', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'peervote-templates-'));
    mkdirSync(path.join(dir, 'mail'));
    writeFileSync(path.join(dir, 'mail', 'reminder.md'), '---\nsubject: "Still time, {{name}}"\n---\nVote: {{url}}\n');
    const templates = loadMailTemplates(dir);
    expect(templates.reminder).toMatchObject({ subject: 'Still time, {{name}}', body: 'Vote: {{url}}\n' });
    expect(templates.invitation.source).toBe('built-in');
    writeFileSync(path.join(dir, 'mail', 'receipt.md'), '---\nsubject: x\n---\n{{ballot}}\n');
    expect(() => loadMailTemplate(dir, 'receipt')).toThrow(/receipt\.md:4:1 {2}body {2}uses the unknown placeholder \{\{ballot\}\}/);
  });

  it('renders text and HTML, values escaped and never read as Markdown, links as links, the footer last', () => {
    const template = parseMailTemplate('invitation', 'built-in', '---\nsubject: Vote, {{name}}\n---\nDear **{{name}}**,\n\n[Open]({{url}})\n\n{{url}}\n');
    const mail = compileMail(template, 'Unsubscribe: {{unsubscribe_url}}')({ name: 'Ada <b>*L*</b>', url: 'https://vote.example/s/abc?x=1&y=2' });
    expect(mail.subject).toBe('Vote, Ada <b>*L*</b>');
    expect(mail.text).toContain('Dear **Ada <b>*L*</b>**,');
    expect(mail.text).toMatch(/Unsubscribe: \n?$/);
    expect(mail.html).toContain('<strong>Ada &#60;b&#62;*L*&#60;/b&#62;</strong>');
    expect(mail.html).toContain('<a href="https://vote.example/s/abc?x=1&#38;y=2">Open</a>');
    expect(mail.html).toContain('<p><a href="https://vote.example/s/abc?x=1&#38;y=2">https://vote.example/s/abc?x=1&#38;y=2</a></p>');
    expect(mail.html.indexOf('Unsubscribe')).toBeGreaterThan(mail.html.indexOf('Open'));
  });

  it('says when the survey closes in words, or nothing', () => {
    expect(closesInWords('2099-12-31T23:59:59Z')).toBe('December 31, 2099');
    expect(closesInWords(undefined)).toBe('');
  });

  it("the demo survey's own invitation passes", () => {
    expect(loadMailTemplate(path.resolve('surveys/top-doctors-demo'), 'invitation').subject).toBe('{{survey_title}}: who would you send your own family to?');
  });
});
