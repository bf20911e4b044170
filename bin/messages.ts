// Compiles the message catalogue (src/i18n/messages/*.json) into src/i18n/paraglide/, as every
// build does first:
//
//   npm run messages
//   npm run messages -- --pseudo <file>    # also writes the English catalogue as en-XA to <file>
//   PSEUDO_LOCALE=1 npm run messages       # compiles en-XA too, as the test build does
//
// A message missing in a shipped language stops it, one line per message with the language. It
// runs in a process of its own, which it ends when done: the inlang SDK leaves timers behind that
// would hold a build or a test run open for half a minute.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { compileCatalogue } from '../src/i18n/catalogue.ts';
import { pseudoCatalogue, pseudoLocaleWanted } from '../src/i18n/pseudo.ts';

try {
  const { values } = parseArgs({ options: { pseudo: { type: 'string' } } });
  const what = pseudoLocaleWanted() ? 'message catalogue with the pseudo-locale en-XA' : 'message catalogue';
  console.log((await compileCatalogue()) ? `${what} compiled` : `${what} unchanged since it was compiled`);
  if (values.pseudo) {
    const english = JSON.parse(readFileSync('src/i18n/messages/en.json', 'utf8'));
    writeFileSync(values.pseudo, `${JSON.stringify({ $schema: english.$schema, ...pseudoCatalogue(english) }, null, 2)}\n`);
    console.log(`the pseudo-locale en-XA written to ${values.pseudo}`);
  }
  process.exit(0);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
