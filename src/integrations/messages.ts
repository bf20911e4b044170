import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { PSEUDO_LOCALE, pseudoLocaleWanted } from '../i18n/pseudo.ts';

/**
 * Compiles the message catalogue (src/i18n/catalogue.ts, through `bin/messages.ts`) as a build,
 * the dev server or the unit tests start; a message missing in a shipped language stops it,
 * naming the message and the language.
 */
export default function messages(): AstroIntegration {
  return {
    name: 'peervote:messages',
    hooks: {
      'astro:config:setup': ({ logger, updateConfig }) => {
        const started = performance.now();
        try {
          const said = execFileSync(process.execPath, ['bin/messages.ts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
          logger.info(`${said} (${Math.round(performance.now() - started)} ms)`);
        } catch (error) {
          const said = String((error as { stderr?: string }).stderr ?? '').trim();
          throw Object.assign(new Error(said || (error as Error).message), {
            hint: "Add each message named above to its language's file under src/i18n/messages/.",
            stack: '',
          });
        }
        updateConfig({ vite: { plugins: [browserRuntime()] } });
      },
    },
  };
}

/**
 * The build's value of `PSEUDO_LOCALE` (src/i18n/pseudo.ts), written into the server's and the
 * commands' bundles in place of the variable (Vite's and esbuild's `define`).
 */
export const PSEUDO_LOCALE_DEFINE = { 'process.env.PSEUDO_LOCALE': JSON.stringify(process.env.PSEUDO_LOCALE ?? '') };

const RUNTIME_ID = '\0peervote:paraglide-browser-runtime';

/**
 * In the browser's bundles, Paraglide's runtime (some 3 KiB compressed: cookies, URL patterns,
 * redirects, strategies) is replaced by the little the messages and src/i18n/messages.ts use of
 * it: the languages, and a getLocale that messages.ts sets to read the page's `<html lang>`. The
 * server and the build keep the whole runtime.
 */
function browserRuntime(): Plugin {
  return {
    name: 'peervote:paraglide-browser-runtime',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    resolveId(source, importer) {
      if (source.endsWith('/runtime.js') && importer?.includes('/src/i18n/')) return RUNTIME_ID;
      return undefined;
    },
    load(id) {
      if (id !== RUNTIME_ID) return undefined;
      const settings = JSON.parse(readFileSync('project.inlang/settings.json', 'utf8')) as { baseLocale: string; locales: string[] };
      const { baseLocale } = settings;
      // A test build's catalogue has the pseudo-locale too (src/i18n/pseudo.ts).
      const locales = pseudoLocaleWanted() ? [...settings.locales, PSEUDO_LOCALE] : settings.locales;
      return [
        `export const baseLocale = ${JSON.stringify(baseLocale)};`,
        `export const locales = ${JSON.stringify(locales)};`,
        'export const experimentalStaticLocale = undefined;',
        'export const isLocale = (locale) => locales.includes(locale);',
        'export let getLocale = () => baseLocale;',
        'export const overwriteGetLocale = (fn) => { getLocale = fn; };',
      ].join('\n');
    },
  };
}
