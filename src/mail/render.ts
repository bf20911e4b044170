import { marked } from 'marked';
import { MAIL_PLACEHOLDERS, type MailPlaceholder, type MailTemplate } from '../survey/mail-templates.ts';

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
const URL_PLACEHOLDERS = new Set<MailPlaceholder>(['url', 'unsubscribe_url']);

const substitute = (text: string, value: (name: MailPlaceholder, index: number) => string) =>
  text.replace(/\{\{\s*([a-z_]+)\s*\}\}/g, (_all, name: MailPlaceholder) => value(name, MAIL_PLACEHOLDERS.indexOf(name)));

/**
 * Fills a template for one person: the text part is the Markdown with the values in; the HTML part
 * is the Markdown drawn by marked, the values escaped in after, a bare link made a link. `footer`
 * (the unsubscribe line of invitations and reminders) closes both parts.
 */
export function renderMail(template: MailTemplate, values: MailValues, footer?: string): RenderedMail {
  const subject = substitute(template.subject, (name) => values[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const source = footer ? `${template.body}\n---\n\n${footer}\n` : template.body;
  const text = substitute(source, (name) => values[name] ?? '');
  let html = marked.parse(
    substitute(source, (_name, index) => mark(index)),
    { async: false, gfm: true },
  ) as string;
  MAIL_PLACEHOLDERS.forEach((name, index) => {
    const value = escapeHtml(values[name] ?? '');
    html = html.replaceAll(`href="${mark(index)}"`, `href="${value}"`);
    html = html.replaceAll(mark(index), URL_PLACEHOLDERS.has(name) && value ? `<a href="${value}">${value}</a>` : value);
  });
  const title = escapeHtml(subject);
  return {
    subject,
    text,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:40em;margin:0 auto;padding:1em;color:#1a1a1a">\n${html}</body></html>\n`,
  };
}
