import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadProjectFromDirectory } from '@inlang/sdk';
import { compileProject, writeOutput } from '@inlang/paraglide-js';
import messageFormat from '@inlang/plugin-message-format';
import { PSEUDO_LOCALE, pseudoCatalogue, pseudoLocaleWanted } from './pseudo.ts';

/**
 * The product's own words: one JSON file per language under src/i18n/messages/, compiled by
 * Paraglide JS into one function per message (src/i18n/paraglide/, written by every build and
 * never committed). A page's script holds only the messages it calls.
 */

const PROJECT = 'project.inlang';
const MESSAGES = 'src/i18n/messages';
const OUTDIR = 'src/i18n/paraglide';

/** A message of one language: a plain pattern, or Paraglide's variants (plurals). */
type Catalogue = Record<string, unknown>;

function readCatalogue(root: string, locale: string): Catalogue {
  const file = path.join(root, MESSAGES, `${locale}.json`);
  if (!fs.existsSync(file)) return {};
  const { $schema: _, ...messages } = JSON.parse(fs.readFileSync(file, 'utf8')) as Catalogue;
  return messages;
}

/**
 * The languages the product ships, the first its default (project.inlang/settings.json).
 * Exported only so its unit test can check it directly.
 * @internal
 */
export function shippedLocales(root = process.cwd()): string[] {
  const settings = JSON.parse(fs.readFileSync(path.join(root, PROJECT, 'settings.json'), 'utf8')) as { baseLocale: string; locales: string[] };
  return [settings.baseLocale, ...settings.locales.filter((locale) => locale !== settings.baseLocale)];
}

/**
 * Every message a shipped language lacks, or holds that the default does not, one line each
 * ("es: `ballot_title` is missing"). Paraglide would quietly show the default's words instead.
 * Exported only so its unit test can check it directly; the build reaches it through compileCatalogue.
 * @internal
 */
export function catalogueGaps(root = process.cwd(), locales = shippedLocales(root)): string[] {
  const [base, ...others] = locales;
  const baseKeys = Object.keys(readCatalogue(root, base!));
  const gaps: string[] = [];
  for (const locale of others) {
    const messages = readCatalogue(root, locale);
    for (const key of baseKeys) if (!(key in messages)) gaps.push(`${locale}: \`${key}\` is missing (${MESSAGES}/${locale}.json)`);
    for (const key of Object.keys(messages)) if (!baseKeys.includes(key)) gaps.push(`${locale}: \`${key}\` is not in ${base} (${MESSAGES}/${base}.json)`);
  }
  return gaps;
}

/** What the compiled output is made from: the settings, each language's messages, the compiler's version and whether it adds en-XA. */
function sourcesHash(root: string, pseudo: boolean): string {
  const hash = createHash('sha256');
  hash.update(fs.readFileSync(path.join(root, PROJECT, 'settings.json')));
  for (const locale of shippedLocales(root)) hash.update(fs.readFileSync(path.join(root, MESSAGES, `${locale}.json`)));
  hash.update(fs.readFileSync(path.join(root, 'node_modules/@inlang/paraglide-js/package.json')));
  // A normal build after a test build compiles again, without en-XA; a change of pseudoText too.
  hash.update(pseudo ? `${PSEUDO_LOCALE}\n${fs.readFileSync(path.join(root, 'src/i18n/pseudo.ts'), 'utf8')}` : 'shipped languages only');
  return hash.digest('hex');
}

/**
 * The inlang project the pseudo-locale's compile reads: a copy in a temporary folder of the
 * settings with `en-XA` added and of each language's messages, with en-XA's made from en.json.
 * The project's own files stay as they are.
 */
function pseudoProject(root: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'peervote-pseudo-catalogue-'));
  const settings = JSON.parse(fs.readFileSync(path.join(root, PROJECT, 'settings.json'), 'utf8')) as { locales: string[] };
  fs.mkdirSync(path.join(copy, PROJECT));
  fs.writeFileSync(path.join(copy, PROJECT, 'settings.json'), JSON.stringify({ ...settings, locales: [...settings.locales, PSEUDO_LOCALE] }));
  fs.mkdirSync(path.join(copy, MESSAGES), { recursive: true });
  for (const locale of shippedLocales(root)) fs.copyFileSync(path.join(root, MESSAGES, `${locale}.json`), path.join(copy, MESSAGES, `${locale}.json`));
  const english = JSON.parse(fs.readFileSync(path.join(root, MESSAGES, 'en.json'), 'utf8'));
  fs.writeFileSync(path.join(copy, MESSAGES, `${PSEUDO_LOCALE}.json`), JSON.stringify({ $schema: english.$schema, ...pseudoCatalogue(english) }));
  return copy;
}

/**
 * Compiles the catalogue into src/i18n/paraglide/; throws naming each message a shipped language
 * lacks. Reading the catalogue into the inlang SDK takes seconds: an output made from the same
 * sources (its hash in `.sources`) is kept as it is. True when it compiled.
 */
export async function compileCatalogue(root = process.cwd()): Promise<boolean> {
  const gaps = catalogueGaps(root);
  if (gaps.length) throw new Error(`The message catalogue is incomplete:\n${gaps.join('\n')}`);
  const stamp = path.join(root, OUTDIR, '.sources');
  const pseudo = pseudoLocaleWanted();
  const hash = sourcesHash(root, pseudo);
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === hash) return false;
  const copy = pseudo ? pseudoProject(root) : undefined;
  try {
    return await compileProjectAt(root, path.join(copy ?? root, PROJECT), stamp, hash);
  } finally {
    if (copy) fs.rmSync(copy, { recursive: true, force: true });
  }
}

/** Compiles the inlang project at `projectPath` into src/i18n/paraglide/ and stamps it with `hash`. */
async function compileProjectAt(root: string, projectPath: string, stamp: string, hash: string): Promise<boolean> {
  // The message-format plugin comes from node_modules, not from a CDN: a build needs no network.
  const project = await loadProjectFromDirectory({ path: projectPath, fs, providePlugins: [messageFormat] });
  try {
    const errors = await project.errors.get();
    if (errors.length) throw new Error(`The message catalogue could not be read:\n${errors.map((error) => error.message).join('\n')}`);
    const output = await compileProject({
      compilerOptions: {
        // src/i18n/messages.ts says which language a page or a request is in.
        strategy: ['globalVariable', 'baseLocale'],
        emitGitIgnore: false,
        emitPrettierIgnore: false,
        emitReadme: false,
      },
      project,
      projectPath,
    });
    await writeOutput({ directory: path.join(root, OUTDIR), output, fs: fs.promises, cleanDirectory: true });
    fs.writeFileSync(stamp, hash);
    return true;
  } finally {
    await project.close();
  }
}
