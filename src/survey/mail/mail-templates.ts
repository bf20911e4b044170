import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, unreadable, type FileProblem } from '../errors.ts';

/** The messages a survey sends, each from `surveys/<slug>/mail/<kind>.md` or its built-in default. */
export const MAIL_TEMPLATE_KINDS = ['invitation', 'reminder', 'receipt'] as const;

/** One of the survey's messages. */
export type MailTemplateKind = (typeof MAIL_TEMPLATE_KINDS)[number];

/** The placeholders a template may use, each `{{name}}`; anything else in double braces stops the build. */
export const MAIL_PLACEHOLDERS = ['name', 'url', 'survey_title', 'closes', 'receipt', 'unsubscribe_url'] as const;

/** One placeholder's name. */
export type MailPlaceholder = (typeof MAIL_PLACEHOLDERS)[number];

/** A template read and checked: its subject line and Markdown body, placeholders still in. */
export interface MailTemplate {
  kind: MailTemplateKind;
  /** Where it came from: the file, or "built-in". */
  source: string;
  subject: string;
  body: string;
}

// The defaults speak to a physician invited by a publication; a survey folder's own files replace them.
const DEFAULTS: Record<MailTemplateKind, string> = {
  invitation: `---
subject: Your invitation to vote: {{survey_title}}
---
Dear {{name}},

You are invited to take part in **{{survey_title}}**. Your personal link opens your ballot with your details filled in:

[Open your ballot]({{url}})

{{url}}

The vote closes {{closes}}. Please keep this link to yourself: it is your ballot.
`,
  reminder: `---
subject: A reminder to vote: {{survey_title}}
---
Dear {{name}},

We have not yet received your ballot for **{{survey_title}}**. It takes about five minutes:

[Open your ballot]({{url}})

{{url}}

The vote closes {{closes}}.
`,
  receipt: `---
subject: Your ballot was received: {{survey_title}}
---
Dear {{name}},

Your ballot for **{{survey_title}}** was received. Your receipt code is **{{receipt}}**.

You can check at any time that your ballot was counted with this code on the receipt page:

{{url}}
`,
};

/** The placeholders a kind of message cannot do without. */
const REQUIRED: Record<MailTemplateKind, MailPlaceholder[]> = { invitation: ['url'], reminder: [], receipt: [] };

/** Where a survey's template of this kind lives. */
function mailTemplateFile(surveyDir: string, kind: MailTemplateKind): string {
  return path.join(surveyDir, 'mail', `${kind}.md`);
}

/**
 * Reads a template's text: a front matter block (`---`, a `subject:` line, `---`) over a Markdown
 * body; every `{{…}}` must be a known placeholder, and the kind's required ones must be there.
 * Answers the template, or every problem with its line and column (the key path names the part:
 * `front matter`, `subject` or `body`).
 */
function readMailTemplate(kind: MailTemplateKind, source: string, text: string): { template?: MailTemplate; problems: FileProblem[] } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const problems: FileProblem[] = [];
  const problem = (line: number, column: number, path: string, message: string) => problems.push({ file: source, line, column, path, message });
  let subject: string | undefined;
  let subjectLine = -1;
  let bodyStart = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
    if (end < 0) problem(1, 1, 'front matter', 'opens a front matter block with "---" that no "---" line closes');
    else {
      for (let index = 1; index < end; index++) {
        const match = /^subject:\s*(.*)$/.exec(lines[index]);
        if (match) [subject, subjectLine] = [match[1].trim().replace(/^(["'])(.*)\1$/, '$2'), index];
        else if (lines[index].trim()) problem(index + 1, 1, 'front matter', `is not a front matter line Peervote reads (only "subject: …")`);
      }
      bodyStart = end + 1;
    }
  }
  if (!subject && !problems.length) problem(1, 1, 'subject', 'needs a front matter block with the subject: "---", "subject: Your invitation to vote", "---"');
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)) {
      seen.add(match[1]);
      if (!(MAIL_PLACEHOLDERS as readonly string[]).includes(match[1])) {
        const names = MAIL_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ');
        problem(
          index + 1,
          match.index + 1,
          index === subjectLine ? 'subject' : 'body',
          `uses the unknown placeholder {{${match[1]}}}; the placeholders are ${names}`,
        );
      }
    }
  });
  for (const name of REQUIRED[kind]) {
    if (!seen.has(name)) problem(Math.min(bodyStart, lines.length - 1) + 1, 1, 'body', `an ${kind} must carry {{${name}}}, the person's link`);
  }
  if (problems.length) return { problems };
  return { template: { kind, source, subject: subject!, body: `${lines.slice(bodyStart).join('\n').trim()}\n` }, problems };
}

/**
 * Reads a template's text (see readMailTemplate); throws a ConfigError naming the file, line and
 * column of each problem.
 * Exported only so its unit test can check it directly; the product reaches it through loadMailTemplate.
 * @internal
 */
export function parseMailTemplate(kind: MailTemplateKind, source: string, text: string): MailTemplate {
  const { template, problems } = readMailTemplate(kind, source, text);
  if (!template) throw new ConfigError(problems);
  return template;
}

/** A survey's template of this kind, read and checked: its own file when there is one, else the built-in default. */
function readSurveyTemplate(surveyDir: string, kind: MailTemplateKind): { template?: MailTemplate; problems: FileProblem[] } {
  const file = mailTemplateFile(surveyDir, kind);
  if (!existsSync(file)) return readMailTemplate(kind, 'built-in', DEFAULTS[kind]);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { problems: [{ file, line: 1, column: 1, path: '(file)', message: unreadable(error) }] };
  }
  return readMailTemplate(kind, file, text);
}

/** A survey's template of this kind: its own file when there is one, else the built-in default. */
export function loadMailTemplate(surveyDir: string, kind: MailTemplateKind): MailTemplate {
  const { template, problems } = readSurveyTemplate(surveyDir, kind);
  if (!template) throw new ConfigError(problems);
  return template;
}

/** Every problem of a survey's own templates (`mail/<kind>.md`), each at its line and column: the surveys' check. */
export function mailTemplateProblems(surveyDir: string): FileProblem[] {
  return MAIL_TEMPLATE_KINDS.flatMap((kind) => readSurveyTemplate(surveyDir, kind).problems);
}

/**
 * Every template of a survey, read and checked.
 * Exported only so its unit test can check it directly; the surveys' check reads them through mailTemplateProblems.
 * @internal
 */
export function loadMailTemplates(surveyDir: string): Record<MailTemplateKind, MailTemplate> {
  return Object.fromEntries(MAIL_TEMPLATE_KINDS.map((kind) => [kind, loadMailTemplate(surveyDir, kind)])) as Record<MailTemplateKind, MailTemplate>;
}

/** The expiration date in words ("December 31, 2099") in a language and the survey's time zone, or empty when the survey has none: `{{closes}}`. */
export function closesInWords(expirationDate: string | undefined, locale = 'en-US', timeZone = 'UTC'): string {
  if (!expirationDate) return '';
  // A bare date is that day wherever the reader is; a full time is the day it falls on in the survey's time zone.
  const zone = /^\d{4}-\d{2}-\d{2}$/.test(expirationDate) ? 'UTC' : timeZone;
  return new Date(expirationDate).toLocaleDateString(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: zone });
}
