import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// The pseudo-locale's check (src/i18n/pseudo.ts): in `en-XA` every text the product or the survey
// writes is accented and between ⟦ ⟧, so a plain word of four or more letters outside the markers
// is one that escaped the catalogue or the survey's translations. The end-to-end crawl
// (tests/e2e/pseudo-locale.spec.ts) and the API's test (tests/api/pseudo-locale.test.ts) both
// read their texts through it.

/** One text to check, and where it was: a page and state, an element's attribute, a mail's part. */
export interface Sample {
  where: string;
  text: string;
}

/** A plain word found, where, and the line around it. */
export interface Escaped {
  word: string;
  where: string;
  line: string;
}

/** A plain word: four or more unaccented Latin letters. */
const PLAIN_WORD = /[A-Za-z]{4,}/g;

/**
 * The text without its pseudo-localized parts, nested ones included (a survey title inside a mail's
 * subject). A marker left open runs to the end of its line, not of the text: a chart's label cut
 * short ("⟦Þŕîɱâŕý Çâŕé ·…") would otherwise hide all that follows. Every letter of a marked text
 * is accented, so a marked text that goes on to the next line still shows no plain word there.
 */
export function unmarked(text: string): string {
  let depth = 0;
  let out = '';
  for (const char of text) {
    if (char === '\n') {
      depth = 0;
      out += char;
    } else if (char === '⟦') depth++;
    else if (char === '⟧') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += char;
    // Each marked part leaves a space, so that the words on either side stay apart.
    else if (!out.endsWith(' ')) out += ' ';
  }
  return out;
}

/**
 * The words of the dates `Intl` writes: it has no data for `en-XA`, and writes a date in it as in
 * English ("December 31, 2099"). A date is the voter's data shown in their language's form, not
 * a text of the catalogue; only the month and weekday names are let through, nothing else.
 */
const DATE_WORDS = new Set(
  [
    ...Array.from({ length: 12 }, (_, month) => new Date(Date.UTC(2026, month, 15))).flatMap((day) => [
      new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' }).format(day),
      new Intl.DateTimeFormat('en', { month: 'short', timeZone: 'UTC' }).format(day),
    ]),
    ...Array.from({ length: 7 }, (_, weekday) => new Date(Date.UTC(2026, 0, 4 + weekday))).flatMap((day) => [
      new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(day),
      new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' }).format(day),
    ]),
  ].filter((word) => word.length >= 4),
);

/**
 * An address (`https://vote.example.org/en-XA/top-doctors-demo/…`), a mail address, a file's name
 * or a receipt code (`HGHR-03SN-CRB5`) is data the voter copies or follows, written as it must be
 * typed, never translated: a mail prints the personal link as text for a reader whose mail shows
 * no link, and the thank-you page the receipt code to keep.
 */
const ADDRESS = /\bhttps?:\/\/\S+|\S+@\S+\.\w+|\b[\w-]+\.(?:png|jpe?g|json)\b|\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\b/g;

/**
 * The nominee list's rows of a survey folder (name, specialty, city, practice): data the voter
 * searched for and picked, shown as the operator's list has them in every language (a survey
 * translates its own texts, not its list's columns). Names are exempt by the check's rule; the
 * specialty, city and practice are shown beside them, from the same row.
 */
export function nomineeTexts(surveyDir: string): string[] {
  const [header, ...rows] = readFileSync(path.join(surveyDir, 'nominees.csv'), 'utf8').trim().split(/\r?\n/);
  const columns = header!.split(',');
  const wanted = ['name', 'specialty', 'city', 'practice'].map((column) => columns.indexOf(column));
  // The demo's list quotes no cell (names with commas would need a CSV reader).
  return rows.flatMap((row) => {
    const cells = row.split(',');
    return wanted.map((index) => cells[index]!).filter(Boolean);
  });
}

/**
 * The site's brand, `provider_name` in site.yaml ("Powered by Peervote" in every footer): the name
 * of whoever runs the site, data of the deployment as a nominee's name is of the list, and written
 * the same in every language.
 */
export function siteBrand(surveysDir: string): string {
  return (parse(readFileSync(path.join(surveysDir, 'site.yaml'), 'utf8')) as { provider_name?: string }).provider_name ?? 'Peervote';
}

/**
 * Each plain word of four or more letters outside the markers in `samples`, with where it was.
 * `exempt` holds texts allowed as they are wherever they show: nominee names, the voter's own
 * answers (what they typed comes back in a problems page, a write-in list, a receipt).
 */
export function escapedWords(samples: readonly Sample[], exempt: readonly string[] = []): Escaped[] {
  // The longest first: a practice ("Riverside Heart Institute") before the city it holds ("Riverside").
  const allowed = [...new Set(exempt)].filter(Boolean).sort((a, b) => b.length - a.length);
  const found: Escaped[] = [];
  for (const { where, text } of samples) {
    let rest = unmarked(text).replace(ADDRESS, ' ');
    // Only what is left with a plain word pays for the exempt texts (thousands of nominees).
    if (!/[A-Za-z]{4,}/.test(rest)) continue;
    for (const text of allowed) if (rest.includes(text)) rest = rest.split(text).join(' ');
    for (const line of rest.split('\n')) {
      for (const [word] of line.matchAll(PLAIN_WORD)) {
        if (!DATE_WORDS.has(word)) found.push({ word, where, line: line.trim().slice(0, 160) });
      }
    }
  }
  return found;
}

/** The words found, one line each, for a test's failure: `"Submit" at /en-XA/…: ballot, text: "… Submit …"`. */
export function describeEscaped(found: readonly Escaped[]): string {
  return found.map(({ word, where, line }) => `"${word}" at ${where}: ${line}`).join('\n');
}
