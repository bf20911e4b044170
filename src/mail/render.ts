import { marked } from 'marked';
import { MAIL_PLACEHOLDERS, type MailPlaceholder, type MailTemplate } from '../survey/mail/mail-templates.ts';

/** One person's values for a template's placeholders; a missing one is empty. */
export type MailValues = Partial<Record<MailPlaceholder, string>>;

/** A message ready to send: subject, text and HTML. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// Placeholders become these marks before Markdown runs, so a value is never read as Markdown or HTML.
const mark = (index: number) => `PVMAILVALUE${index}X`;
const hrefMark = (index: number) => `PVMAILHREF${index}X`;
const URL_PLACEHOLDERS = new Set<MailPlaceholder>(['url', 'unsubscribe_url']);

const substitute = (text: string, value: (name: MailPlaceholder, index: number) => string) =>
  text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_all, name: MailPlaceholder) => value(name, MAIL_PLACEHOLDERS.indexOf(name)));

/**
 * Prepares a template for many people: Markdown runs once, on marks standing for the values, and
 * each person's message is the marks replaced: in the text part by the values, in the HTML part
 * by the values escaped (a bare link made a link), so a name is never read as Markdown or HTML.
 * `footer` (the unsubscribe line of invitations and reminders) closes both parts; `lang` is the
 * language the HTML part says it is in.
 */
export function compileMail(template: MailTemplate, footer?: string, lang = 'en'): (values: MailValues) => RenderedMail {
  const source = footer ? `${template.body}\n---\n\n${footer}\n` : template.body;
  let drawn = marked.parse(
    substitute(source, (_name, index) => mark(index)),
    { async: false, gfm: true },
  ) as string;
  MAIL_PLACEHOLDERS.forEach((_name, index) => {
    drawn = drawn.replaceAll(`href="${mark(index)}"`, `href="${hrefMark(index)}"`);
  });
  // The drawn HTML cut at its marks once: each message is then one join, not a pass per placeholder
  // (twenty thousand invitations make that the difference).
  const parts = drawn.split(/(PVMAIL(?:VALUE|HREF)\d+X)/);
  const shell = (subject: string, body: string) =>
    `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:40em;margin:0 auto;padding:1em;color:#1a1a1a">\n${body}</body></html>\n`;
  return (values) => {
    const subject = substitute(template.subject, (name) => values[name] ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    const text = substitute(source, (name) => values[name] ?? '');
    const escaped = MAIL_PLACEHOLDERS.map((name) => escapeHtml(values[name] ?? ''));
    let html = '';
    for (let index = 0; index < parts.length; index++) {
      const part = parts[index];
      if (index % 2 === 0) html += part;
      else {
        const which = Number(/\d+/.exec(part)![0]);
        const value = escaped[which];
        html += part.startsWith('PVMAILHREF') || !URL_PLACEHOLDERS.has(MAIL_PLACEHOLDERS[which]) || !value ? value : `<a href="${value}">${value}</a>`;
      }
    }
    return { subject, text, html: shell(subject, html) };
  };
}
