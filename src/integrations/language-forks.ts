import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';

/**
 * The browser's islands once per language. A compiled message holds every language's words and
 * picks one when called, so one bundle for all would give each page the words of every language
 * (the demo ballot some 1.9 KB compressed of Spanish on an English page, and the reverse). Here
 * the browser's build takes each island a second time per further language, as
 * `islands.ts?locale=es`: everything it imports from src/ is taken with the same `?locale=`, down
 * to the messages, whose runtime then names the language as a constant, and the minifier drops
 * the other languages' words. Each page in a further language (`<html lang>`) is then pointed to
 * its language's islands once the build is done. The server and the build render every language
 * from the one catalogue as before.
 */

const SRC = fileURLToPath(new URL('../', import.meta.url));
/** A module id's language, as the fork gives it. */
const FORK = /[?&]locale=([A-Za-z]+(?:-[A-Za-z0-9]+)*)$/;
/** The replacement of Paraglide's runtime in the browser's bundles (see `runtimeSource`). */
const RUNTIME_ID = '\0peervote:paraglide-browser-runtime';

interface Settings {
  baseLocale: string;
  locales: string[];
}

const readSettings = (): Settings => JSON.parse(readFileSync('project.inlang/settings.json', 'utf8')) as Settings;

/** The language a module id was taken in, if a fork's. */
function forkLocale(id: string): string | undefined {
  return FORK.exec(id)?.[1];
}

/** `id` as its copy in `locale`. */
const forked = (id: string, locale: string) => `${id}${id.includes('?') ? '&' : '?'}locale=${locale}`;

/**
 * In the browser's bundles, Paraglide's runtime (some 3 KiB compressed: cookies, URL patterns,
 * redirects, strategies) is replaced by the little the messages and src/i18n/messages.ts use of
 * it: the languages, and a getLocale that messages.ts sets to read the page's `<html lang>`. In a
 * language's fork the language is a constant (Paraglide's `experimentalStaticLocale`), and each
 * message keeps only its words. The server and the build keep the whole runtime.
 */
function runtimeSource({ baseLocale, locales }: Settings, locale: string | undefined): string {
  return [
    `export const baseLocale = ${JSON.stringify(baseLocale)};`,
    `export const locales = ${JSON.stringify(locales)};`,
    `export const experimentalStaticLocale = ${JSON.stringify(locale)};`,
    'export const isLocale = (locale) => locales.includes(locale);',
    'export let getLocale = () => experimentalStaticLocale ?? baseLocale;',
    'export const overwriteGetLocale = (fn) => { if (!experimentalStaticLocale) getLocale = fn; };',
  ].join('\n');
}

/** The islands' built files: the default language's file → each further language's file. */
type ForkFiles = Map<string, Map<string, string>>;

function forksPlugin(settings: Settings, files: ForkFiles): Plugin {
  return {
    name: 'peervote:language-forks',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    options(options) {
      // The islands are the build's entries under src/ that are modules of their own (an Astro
      // component's <script> is an entry too, as `Name.astro?astro&type=script…`).
      if (!Array.isArray(options.input)) return;
      const islands = options.input.filter((id) => id.startsWith(SRC) && !id.includes('?'));
      options.input = [...options.input, ...settings.locales.flatMap((locale) => islands.map((id) => forked(id, locale)))];
    },
    async resolveId(source, importer, options) {
      const locale = importer ? forkLocale(importer) : undefined;
      if (source.endsWith('/runtime.js') && importer?.includes('/src/i18n/')) return locale ? forked(RUNTIME_ID, locale) : RUNTIME_ID;
      if (!locale || !importer) return null;
      const resolved = await this.resolve(source, importer.replace(FORK, ''), { ...options, skipSelf: true });
      if (!resolved || resolved.external || !resolved.id.startsWith(SRC) || resolved.id.includes('?')) return resolved;
      return { ...resolved, id: forked(resolved.id, locale) };
    },
    load(id) {
      if (id.startsWith(RUNTIME_ID)) return runtimeSource(settings, forkLocale(id));
      return undefined;
    },
    generateBundle(_options, bundle) {
      const byEntry = new Map<string, string>();
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && chunk.isEntry && chunk.facadeModuleId) byEntry.set(chunk.facadeModuleId, chunk.fileName);
      for (const [id, file] of byEntry) {
        const locale = forkLocale(id);
        const base = locale && byEntry.get(id.replace(FORK, ''));
        if (!locale || !base) continue;
        if (!files.has(locale)) files.set(locale, new Map());
        files.get(locale)!.set(`/${base}`, `/${file}`);
      }
    },
  };
}

/** Every built page under `dir`. */
function* htmlFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(file);
    else if (entry.name.endsWith('.html')) yield file;
  }
}

/** Points each page in a further language to its language's islands. */
function pointPages(dir: string, files: ForkFiles): number {
  let pages = 0;
  for (const file of htmlFiles(dir)) {
    const html = readFileSync(file, 'utf8');
    const locale = /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1];
    const swaps = locale ? files.get(locale) : undefined;
    if (!swaps) continue;
    const pointed = html.replace(/(component-url=")([^"]+)"/g, (whole, attribute: string, url: string) => {
      const fork = swaps.get(url);
      return fork ? `${attribute}${fork}"` : whole;
    });
    if (pointed !== html) {
      writeFileSync(file, pointed);
      pages++;
    }
  }
  return pages;
}

/** Builds the browser's islands once per language and points each page to its language's. */
export default function languageForks(): AstroIntegration {
  const files: ForkFiles = new Map();
  return {
    name: 'peervote:language-forks',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [forksPlugin(readSettings(), files)] } });
      },
      'astro:build:done': ({ dir, logger }) => {
        const pages = pointPages(fileURLToPath(dir), files);
        logger.info(`${pages} pages pointed to their language's islands`);
      },
    },
  };
}
