// Compiles the message catalogue (src/i18n/messages/*.json) into src/i18n/paraglide/, as every
// build does first:
//
//   npm run messages
//
// A message missing in a shipped language stops it, one line per message with the language. It
// runs in a process of its own, which it ends when done: the inlang SDK leaves timers behind that
// would hold a build or a test run open for half a minute.
import { compileCatalogue } from '../src/i18n/catalogue.ts';

try {
  console.log((await compileCatalogue()) ? 'message catalogue compiled' : 'message catalogue unchanged since it was compiled');
  process.exit(0);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
