// The operator's side of a survey: export the ballots, count them with the integrity rules,
// reconcile write-ins, confirm or release reservations. Works on the survey API's database,
// SQLite or PostgreSQL, as the same environment variables name it (DATABASE_URL, DATA_DIR, SQLITE_FILE).
//
//   npm run results -- <command> <slug> [options]        npm run results -- --help
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { listSurveySlugs, loadPrepopulation, loadSurvey, surveysDir } from '../src/survey/loader.ts';
import { loadNominees } from '../src/survey/nominee-file.ts';
import { ConfigError } from '../src/survey/errors.ts';
import { EnvError, readServerConfig } from '../src/server/config.ts';
import { openOperatorDatabase } from '../src/server/results/open-database.ts';
import { OperatorError } from '../src/server/results/operator-error.ts';
import * as commands from './lib/results-commands.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
const by: Options = { by: { type: 'string' } };

/** Every command: its options, how it is used, and what it does. */
const COMMANDS: Record<string, { options: Options; usage: string; about: string; run: (context: commands.Context) => Promise<void>; offline?: boolean }> = {
  export: {
    options: { format: { type: 'string' }, out: { type: 'string' }, quiet: { type: 'boolean' } },
    usage: 'export <slug> [--format csv|jsonl] [--out FILE] [--quiet]',
    about: 'Every ballot, in the order received: answers, nomination slots (id and name), write-ins, reservations and their outcome, file names. CSV by default; progress on stderr.',
    run: commands.exportCommand,
  },
  tally: {
    options: { out: { type: 'string' }, exclusions: { type: 'string' }, top: { type: 'string' }, threshold: { type: 'string' }, quiet: { type: 'boolean' } },
    usage: 'tally <slug> [--out FILE] [--exclusions FILE] [--top N] [--threshold N|P%] [--quiet]',
    about:
      "Counted votes per nominee and sub-category under the survey's methodology (its tally: block), with excluded votes by reason, as CSV (stdout, or --out, which also writes FILE.meta.json); " +
      'a summary of the top N (default 5) per sub-category on the terminal, with the configuration digest and the audit entry the tally reflects. ' +
      "--threshold marks winners, in place of the methodology's publish.top: the top N of each sub-category, or every nominee with at least P% of its votes. --exclusions writes every excluded vote with its reason.",
    run: commands.tallyCommand,
  },
  methodology: {
    options: { out: { type: 'string' } },
    usage: 'methodology <slug> [--out FILE]',
    about: "The counting rules the tally applies (the survey's tally: block), one sentence each, as Markdown for the publication to print.",
    run: commands.methodologyCommand,
    // It reads survey.yaml alone: the methodology can be printed before any ballot is stored.
    offline: true,
  },
  writeins: {
    options: { format: { type: 'string' }, candidates: { type: 'string' } },
    usage: 'writeins <slug> [--format table|csv] [--candidates N]',
    about: 'Write-ins grouped by normalised name and sub-category, with counts, the closest nominees on the list and the decision taken.',
    run: commands.writeInsCommand,
  },
  'writeins resolve': {
    options: {
      name: { type: 'string' },
      category: { type: 'string' },
      nominee: { type: 'string' },
      new: { type: 'boolean' },
      id: { type: 'string' },
      'display-name': { type: 'string' },
      specialty: { type: 'string' },
      practice: { type: 'string' },
      city: { type: 'string' },
      reject: { type: 'boolean' },
      note: { type: 'string' },
      ...by,
    },
    usage: 'writeins resolve <slug> --name NAME [--category "Group / Sub-category"] (--nominee ID | --new [--id ID] [--display-name NAME] [--specialty S] [--practice P] [--city C] | --reject) [--note TEXT] [--by WHO]',
    about: 'Records a decision on a write-in (every sub-category it was written in, unless --category): count it for a listed nominee, for a new nominee, or not at all. tally honours it; who and when are kept.',
    run: commands.resolveCommand,
  },
  'writeins log': {
    options: {},
    usage: 'writeins log <slug>',
    about: 'Every write-in decision ever made, oldest first, with who and when (CSV).',
    run: commands.logCommand,
  },
  'writeins publish': {
    options: { ...by },
    usage: 'writeins publish <slug> [--by WHO]',
    about: "Appends the new nominees that decisions created to the survey's nominee file; then push them to Algolia with nominees:sync.",
    run: commands.publishCommand,
  },
  'confirm-reservation': {
    options: { label: { type: 'string' }, ...by },
    usage: 'confirm-reservation <slug> faces|experts <tile> [--label TEXT] [--by WHO]',
    about: 'Confirms the ballot holding a tile: the hold no longer expires and the confirmed list shows the label (default "THE FACE OF {title}", or the question).',
    run: (context) => commands.reservationCommand('confirm', context),
  },
  'release-reservation': {
    options: { ...by },
    usage: 'release-reservation <slug> faces|experts <tile> [--by WHO]',
    about: 'Releases a tile: the ballot holding it lets go, it leaves the confirmed list, and the next ballot may take it.',
    run: (context) => commands.reservationCommand('release', context),
  },
  audit: {
    options: { out: { type: 'string' } },
    usage: 'audit <slug> [--out FILE]',
    about: 'Every change operators made to the survey\'s data (write-in decisions, published nominees, reservation decisions…), oldest first, with who, when, what and why (CSV). The trail is only ever appended to.',
    run: commands.auditCommand,
  },
};

function help(): string {
  const lines = ['Usage: npm run results -- <command> <slug> [options]', ''];
  for (const { usage, about } of Object.values(COMMANDS)) lines.push(`  ${usage}`, `      ${about}`, '');
  lines.push(
    'The database is the survey API\'s: DATABASE_URL (PostgreSQL), else DATA_DIR and SQLITE_FILE (default ./data/peervote.sqlite).',
    'The surveys are read from SURVEYS_DIR (default ./surveys). --by defaults to the operating system\'s user.',
  );
  return `${lines.join('\n')}\n`;
}

function fail(message: string, status = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(status);
}

const argv = process.argv.slice(2);
if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
  process.stdout.write(help());
  process.exit(argv.length === 0 ? 2 : 0);
}
const name = argv[0] === 'writeins' && ['resolve', 'log', 'publish'].includes(argv[1]) ? `writeins ${argv[1]}` : argv[0];
const command = COMMANDS[name];
if (!command) fail(`Unknown command "${argv[0]}"; the commands are export, tally, methodology, writeins [resolve|log|publish], confirm-reservation, release-reservation, audit (--help explains them).`, 2);

let parsed: ReturnType<typeof parseArgs>;
try {
  parsed = parseArgs({ args: argv.slice(name.split(' ').length), options: { ...command.options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
} catch (error) {
  fail(`${(error as Error).message.split('\n')[0]}. Usage: npm run results -- ${command.usage}`, 2);
}
if (parsed.values.help) {
  process.stdout.write(`Usage: npm run results -- ${command.usage}\n\n${command.about}\n`);
  process.exit(0);
}
const [slug, ...rest] = parsed.positionals;
if (!slug) fail(`Which survey? Usage: npm run results -- ${command.usage}`, 2);

let db: commands.Context['db'] | undefined;
try {
  let slugs: string[];
  try {
    slugs = listSurveySlugs();
  } catch (error) {
    throw new OperatorError(`Cannot read the surveys folder ${surveysDir()}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (SURVEYS_DIR names it).`);
  }
  if (!slugs.includes(slug)) throw new OperatorError(`There is no survey "${slug}"; the surveys are ${slugs.join(', ')}.`);
  const survey = loadSurvey(slug);
  const nominees = loadNominees(survey);
  const prepopulation = loadPrepopulation(survey);
  if (!command.offline) ({ db } = await openOperatorDatabase(readServerConfig()));
  await command.run({ db: db!, survey, nominees, prepopulation, options: parsed.values as commands.Context['options'], rest });
  await db?.destroy();
} catch (error) {
  await db?.destroy().catch(() => undefined);
  if (error instanceof OperatorError || error instanceof EnvError || error instanceof ConfigError) fail(error.message);
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
  fail(`results ${name} failed: ${(error as Error).stack ?? error}`);
}
