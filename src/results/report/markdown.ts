import { escapeHtml } from '../../server/html-page.ts';

/** Inline Markdown on escaped text: `code` and **bold**, nothing else. */
function inline(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/**
 * A small, safe Markdown renderer for the report's methodology: headings (#, ##, ###),
 * paragraphs, bulleted lists, `code` and **bold**. Every character of the text is escaped
 * first, so no HTML in it survives; links and images are not supported.
 */
export function renderMarkdown(markdown: string): string {
  const html: string[] = [];
  for (const block of markdown.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n').filter((line) => line.trim());
    if (!lines.length) continue;
    const heading = /^(#{1,3})\s+(.*)$/.exec(lines[0]);
    if (heading && lines.length === 1) {
      const level = heading[1].length + 1;
      html.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (lines.every((line) => /^\s*[-*]\s+/.test(line))) {
      html.push(`<ul>${lines.map((line) => `<li>${inline(line.replace(/^\s*[-*]\s+/, ''))}</li>`).join('')}</ul>`);
    } else {
      html.push(`<p>${inline(lines.join(' '))}</p>`);
    }
  }
  return html.join('\n');
}
