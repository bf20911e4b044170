// The operator's side of a survey: export the ballots, count them with the integrity rules,
// reconcile write-ins, confirm or release reservations; back up and restore the whole database.
// Works on the survey API's database, SQLite or PostgreSQL, as the same environment variables
// name it (DATABASE_URL, DATA_DIR, SQLITE_FILE).
//
//   npm run results -- <command> <slug> [options]        npm run results -- --help
//   npm run results -- backup --out FILE                 npm run results -- restore FILE
//
// Plain JavaScript, as is all it imports before the bundle: a run of the bundle loads no
// TypeScript, so Node never loads its type stripper (0.12 s of processor time a run).
import module from 'node:module';
import path from 'node:path';

// Each run loads the same hundred modules: V8's compiled code is kept between runs (under the
// system's temporary folder, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off),
// which halves the start of every command. It must be on before they load: hence the import below.
module.enableCompileCache();
// The build bundles the command line (src/integrations/cli-bundle/), which starts on about half
// the processor time of the sources: it runs while every file it was made of is unchanged, the
// sources otherwise.
const { freshBundle } = await import('../src/integrations/cli-bundle/manifest.mjs');
const bundle = freshBundle(path.resolve(import.meta.dirname, '../dist'), 'results');
if (bundle) await import(bundle);
else await import('./lib/results-cli.ts');
