import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { PSEUDO_LOCALE, pseudoLocaleWanted } from '../i18n/pseudo.ts';

/**
 * The browser's code once per language. A compiled message holds every language's words and
 * picks one when called, so one bundle for all would give each page the words of every language
 * (the demo ballot some 1.9 KB compressed of Spanish on an English page, and the reverse). Here
 * the browser's build takes each of its entries (the islands, the components' <script>s, the
 * React renderer) once more per language, as `islands.ts?locale=es`: everything an entry imports
 * is taken with the same `?locale=`, down to the messages, whose runtime then names the language
 * as a constant, and the minifier drops the other languages' words. A page's islands and scripts
 * share their stores, so they are all of the one copy. Once the build is done each page is
 * pointed to the copy of its `<html lang>`. The copies without a language stay for the pages the
 * server renders on request (the console). The server and the build render every language from
 * the one catalogue as before.
 */

/** A module id's language, as the fork gives it: last, or before an Astro script's `&lang.ts`. */
const FORK = /[?&]locale=([A-Za-z]+(?:-[A-Za-z0-9]+)*)(?=&lang\.\w+$|$)/;
/** An Astro component's <script>, an entry of the browser's build: `Name.astro?astro&type=script&index=0&lang.ts`. */
const ASTRO_SCRIPT = /\.astro\?astro&type=script&index=\d+&lang\.\w+$/;
/** Vite's helper for lazy imports, and the id of a language's copy of it. */
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const HELPER_ID = '\0peervote:preload-helper';
/** The replacement of Paraglide's runtime in the browser's bundles (see `runtimeSource`). */
const RUNTIME_ID = '\0peervote:paraglide-browser-runtime';

interface Settings {
  baseLocale: string;
  locales: string[];
}

/** The catalogue's languages; a test build's has the pseudo-locale too (src/i18n/pseudo.ts). */
function readSettings(): Settings {
  const settings = JSON.parse(readFileSync('project.inlang/settings.json', 'utf8')) as Settings;
  return pseudoLocaleWanted() ? { ...settings, locales: [...settings.locales, PSEUDO_LOCALE] } : settings;
}

/** The language a module id was taken in, if a fork's. */
function forkLocale(id: string): string | undefined {
  return FORK.exec(id)?.[1];
}

/** `id` as its copy in `locale` (an Astro script's id keeps `&lang.ts` last, which says how to compile it). */
function forked(id: string, locale: string): string {
  if (ASTRO_SCRIPT.test(id)) return id.replace(/&lang\.\w+$/, (lang) => `&locale=${locale}${lang}`);
  return `${id}${id.includes('?') ? '&' : '?'}locale=${locale}`;
}

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

/** The entries' built files, by language: the file without a language → the language's copy.*/
type ForkFiles = Map<string, Map<string, string>>;

function forksPlugin(settings: Settings, files: ForkFiles): Plugin {
  return {
    name: 'peervote:language-forks',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    options(options) {
      // The build's entries: the islands, the components' <script>s and the React renderer.
      if (!Array.isArray(options.input)) return;
      const entries = options.input.filter((id) => !id.includes('?') || ASTRO_SCRIPT.test(id));
      options.input = [...options.input, ...settings.locales.flatMap((locale) => entries.map((id) => forked(id, locale)))];
    },
    async resolveId(source, importer, options) {
      // An entry's copy (`@astrojs/react/client.js?locale=es`): the entry, then its copy.
      const entryLocale = importer ? undefined : forkLocale(source);
      const locale = entryLocale ?? (importer ? forkLocale(importer) : undefined);
      if (source.endsWith('/runtime.js') && importer?.includes('/src/i18n/')) return locale ? forked(RUNTIME_ID, locale) : RUNTIME_ID;
      if (!locale) return null;
      const resolved = await this.resolve(source.replace(FORK, ''), importer?.replace(FORK, ''), { ...options, skipSelf: true });
      if (!resolved || resolved.external) return resolved;
      // Vite's helper for lazy imports, which every language's first load holds: a copy of its own (see load).
      if (resolved.id === PRELOAD_HELPER) return forked(HELPER_ID, locale);
      if (resolved.id.startsWith('\0') || (resolved.id.includes('?') && !ASTRO_SCRIPT.test(resolved.id))) return resolved;
      return { ...resolved, id: forked(resolved.id, locale) };
    },
    async load(id) {
      if (id.startsWith(RUNTIME_ID)) return runtimeSource(settings, forkLocale(id));
      if (id.startsWith(HELPER_ID)) return (await this.load({ id: PRELOAD_HELPER })).code ?? undefined;
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

/** Points each page to its language's islands and scripts. */
function pointPages(dir: string, files: ForkFiles): number {
  let pages = 0;
  for (const file of htmlFiles(dir)) {
    const html = readFileSync(file, 'utf8');
    const locale = /<html[^>]*\slang="([^"]+)"/.exec(html)?.[1];
    const swaps = locale ? files.get(locale) : undefined;
    if (!swaps) continue;
    const pointed = html.replace(/((?:component-url|renderer-url|src)=")([^"]+)"/g, (whole, attribute: string, url: string) => {
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

/** Builds the browser's code once per language and points each page to its language's. */
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
        logger.info(`${pages} pages pointed to their language's scripts`);
      },
    },
  };
}
