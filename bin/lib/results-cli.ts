// The body of `npm run results` (bin/results.mjs): parses the command line and runs the command.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync } from 'node:fs';
import { listSurveySlugs, loadSurvey, prepopulationFile, surveysDir } from '../../src/survey/config/loader.ts';
import { importPeople } from '../../src/server/people/people-import.ts';
import { peopleKey, peopleOf } from '../../src/server/people/people.repository.ts';
import { loadNominees } from '../../src/survey/nominees/nominee-file.ts';
import { ConfigError, quoted } from '../../src/survey/errors.ts';
import { EnvError, readServerConfig } from '../../src/server/config.ts';
import { OperatorError, openOperatorDatabase } from '../../src/results/operator.ts';
import * as commands from './results-commands.ts';
import { inviteCommand } from './invite-command.ts';
import { receiptCommand, responsesCommand } from './vote-commands.ts';
import { purgeCommand } from './purge-command.ts';
import { auditCommand } from './audit-command.ts';
import * as integrity from './integrity-commands.ts';
import { publishCommand, verifyCommand } from './publish-commands.ts';
import { openSeal, SEALED_COMMANDS } from '../../src/results/publish/seal.ts';
import * as mail from './mail-commands.ts';
import { backupCommand, restoreCommand } from './backup-commands.ts';
import { listOperatorsCommand, operatorLinkCommand, operatorsAuditCommand, signInsCommand, type OperatorsContext } from './operators-command.ts';

type Options = NonNullable<ParseArgsConfig['options']>;
const by: Options = { by: { type: 'string' } };
const why: Options = { why: { type: 'string' } };
/** Opens one run of a command that shows standings before a sealed survey's close: audited. */
const unseal: Options = { unseal: { type: 'boolean' }, why: { type: 'string' }, by: { type: 'string' } };
const UNSEAL_USAGE = ' [--unseal --why TEXT [--by WHO]]';
const UNSEAL_ABOUT =
  ' Sealed (results: sealed: true) until the close: refused before it, unless --unseal --why opens this one run, recorded on the audit trail.';

/** Every command: its options, how it is used, and what it does. */
const COMMANDS: Record<string, { options: Options; usage: string; about: string; run: (context: commands.Context) => Promise<void>; offline?: boolean }> = {
  export: {
    options: { format: { type: 'string' }, out: { type: 'string' }, quiet: { type: 'boolean' }, ...unseal },
    usage: `export <slug> [--format csv|jsonl] [--out FILE] [--quiet]${UNSEAL_USAGE}`,
    about:
      'Every ballot, in the order received: answers, nomination slots (id and name), write-ins, reservations and their outcome, file names. CSV by default; progress on stderr.' +
      UNSEAL_ABOUT,
    run: commands.exportCommand,
  },
  tally: {
    options: {
      out: { type: 'string' },
      exclusions: { type: 'string' },
      top: { type: 'string' },
      threshold: { type: 'string' },
      quiet: { type: 'boolean' },
      ...unseal,
    },
    usage: `tally <slug> [--out FILE] [--exclusions FILE] [--top N] [--threshold N|P%] [--quiet]${UNSEAL_USAGE}`,
    about:
      "Counted votes per nominee and sub-category under the survey's methodology (its tally: block), with excluded votes by reason, as CSV (stdout, or --out, which also writes FILE.meta.json); " +
      'a summary of the top N (default 5) per sub-category on the terminal, with the configuration digest and the audit entry the tally reflects. ' +
      "--threshold marks winners, in place of the methodology's publish.top: the top N of each sub-category, or every nominee with at least P% of its votes. --exclusions writes every excluded vote with its reason." +
      UNSEAL_ABOUT,
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
      undo: { type: 'boolean' },
      note: { type: 'string' },
      ...by,
      ...why,
    },
    usage:
      'writeins resolve <slug> --name NAME [--category "Group / Sub-category"] (--nominee ID | --new [--id ID] [--display-name NAME] [--specialty S] [--practice P] [--city C] | --reject | --undo) (--why TEXT | --note TEXT) [--by WHO]',
    about:
      "Records a decision on a write-in (every sub-category it was written in, unless --category): count it for a listed nominee, for a new nominee, or not at all; --undo takes the decision back. tally honours it; who and when are kept. The console's write-ins page records its decisions through the same function.",
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
  refused: {
    options: {},
    usage: 'refused <slug>',
    about:
      'Every ballot the API refused for a rule, kept whole: id, when, reason and problems, email, file names (not kept), whether admitted, then the answers (CSV).',
    run: commands.refusedCommand,
  },
  admit: {
    options: { why: { type: 'string' }, ...by },
    usage: 'admit <slug> <id> --why TEXT [--by WHO]',
    about:
      "Moves one refused ballot into the ballots, stored as the API stores a ballot (its personal link's read-only values apply), and records who, when and why on the refused row.",
    run: commands.admitCommand,
  },
  'confirm-reservation': {
    options: { label: { type: 'string' }, ...by, ...why },
    usage: 'confirm-reservation <slug> faces|experts <tile> --why TEXT [--label TEXT] [--by WHO]',
    about:
      'Confirms the ballot holding a tile: the hold no longer expires and the confirmed list shows the label (default "THE FACE OF {title}", or the question).',
    run: (context) => commands.reservationCommand('confirm', context),
  },
  'release-reservation': {
    options: { ...by, ...why },
    usage: 'release-reservation <slug> faces|experts <tile> --why TEXT [--by WHO]',
    about: 'Releases a tile: the ballot holding it lets go, it leaves the confirmed list, and the next ballot may take it.',
    run: (context) => commands.reservationCommand('release', context),
  },
  invite: {
    options: { roster: { type: 'string' }, 'base-url': { type: 'string' }, out: { type: 'string' }, 'remove-missing': { type: 'boolean' }, ...by, ...why },
    usage: 'invite <slug> --roster people.csv [--base-url URL] [--out links.csv] [--remove-missing] [--by WHO] [--why TEXT]',
    about:
      'Personal links from a roster (CSV with a header; email required; columns named like layout fields prefill them; nominee_id ties a voter to the nominee list). ' +
      'New people get a new secret, people already on file keep theirs (matched by email). Writes the prepopulation file (in PEERVOTE_PRIVATE_DIR when set) and the mailing list name,email,url (stdout, or --out). ' +
      'People on file but not on the roster are kept unless --remove-missing. --base-url defaults to PEERVOTE_BASE_URL, else http://127.0.0.1:4321.',
    run: inviteCommand,
  },
  responses: {
    options: { by: { type: 'string' }, format: { type: 'string' }, pending: { type: 'boolean' }, out: { type: 'string' }, 'base-url': { type: 'string' } },
    usage: 'responses <slug> [--by COLUMN] [--format table|csv] [--out FILE] | responses <slug> --pending [--base-url URL] [--out remind.csv]',
    about:
      'Invited, responded and pending people (pending split into links opened without a ballot and links never opened), overall and, with --by, per value of a roster column (specialty, region…). ' +
      'Here --by names the column: responses changes nothing. --pending writes the people who have not voted with their personal links (name,email,url,status,first_opened_at,last_opened_at) for a reminder mailing.',
    run: responsesCommand,
  },
  receipt: {
    options: {},
    usage: 'receipt <slug> <code>',
    about: 'When the ballot with this receipt code was received, and whether the tally counts its votes (and, for each vote it leaves out, why).',
    run: receiptCommand,
  },
  'purge-personal': {
    options: { 'dry-run': { type: 'boolean' }, force: { type: 'boolean' }, quiet: { type: 'boolean' }, ...by, ...why },
    usage: 'purge-personal <slug> [--dry-run] [--force --why TEXT] [--by WHO] [--quiet]',
    about:
      'After the vote: removes the answers of fields marked personal: true and every upload (the files too) from the stored ballots, keeping votes, workplaces and pseudonymous voter keys, so the tally is the same after. ' +
      'Refuses before the expiration_date unless --force (which needs --why). --dry-run says what would go.',
    run: purgeCommand,
  },
  audit: {
    options: {
      format: { type: 'string' },
      action: { type: 'string' },
      actor: { type: 'string' },
      out: { type: 'string' },
      verify: { type: 'boolean' },
      head: { type: 'string' },
    },
    usage: 'audit <slug> [--format csv|jsonl|table] [--action ACTION] [--actor WHO] [--out FILE] | audit <slug> --verify [--head HASH]',
    about:
      "Every change made to the survey's data (write-in decisions, published nominees, reservation decisions…), with when, through what (command line or console), who, role, what and why: " +
      'CSV (the default) or JSON Lines oldest first with every column and the hash chain, or a table newest first; --action and --actor (a --by name or an address) narrow it. ' +
      "--verify checks the whole trail against its hash chain (each entry holds its predecessor's hash and its own): verified: N entries, head H, or a non-zero exit naming the first entry changed, removed or reordered. " +
      'Removing the newest entries leaves a chain that checks: note the head, and give it back with --head; a published survey is checked against the entry its results.json names too.',
    run: auditCommand,
  },
  signals: {
    options: {
      format: { type: 'string' },
      out: { type: 'string' },
      quiet: { type: 'boolean' },
      ...by,
      ...Object.fromEntries(Object.keys(integrity.THRESHOLD_OPTIONS).map((name) => [name, { type: 'string' as const }])),
    },
    usage:
      'signals <slug> [--format table|csv] [--out FILE] [--window MIN] [--human-per-minute N] [--fast-seconds S] [--address-min N] [--device-min N] [--nominee-min N] [--nominee-ratio X] [--similar-min N] [--similar-ballots N] [--similar-lift X] [--bloc-min N] [--bloc-size N] [--bloc-lift X] [--quiet] [--by WHO]',
    about:
      'Fraud signals, flagged not blocked: clusters of ballots from one address or browser in a short window (--window, default 10 minutes; --address-min 5, --device-min 10; and, however young the survey, more than --human-per-minute 2 in one minute), ballots filled faster than --fast-seconds 20 (3 or more from one address or browser), bursts of votes for one nominee (--nominee-min 8 at --nominee-ratio 5 times its usual pace), ' +
      'near-identical ballots (--similar-ballots 3 with at least --similar-min 4 entries, --similar-lift 10 times what popularity predicts), license or NPI numbers that fail their check or repeat under other emails, reciprocal nominations between voters on the nominee list, and blocs naming the same --bloc-size 3 nominees (--bloc-min 5 ballots, --bloc-lift 10 times their popularity). ' +
      'Each cluster: kind, strength and score (times its threshold), ballot ids, one line of evidence. ' +
      "Each run is recorded for the console's survey page: when, by whom (--by, else your system user), the thresholds, and per kind the clusters and the ballots they name.",
    run: integrity.signalsCommand,
  },
  exclude: {
    options: { why: { type: 'string' }, ...by },
    usage: 'exclude <slug> <ballot-id> --why TEXT [--by WHO]',
    about:
      "Takes a ballot out of the count (the console's Exclude, on its signals page): tally lists all its votes under operator_excluded with the why; the audit trail keeps who, when and why.",
    run: (context) => integrity.exclusionCommand('exclude', context),
  },
  include: {
    options: { why: { type: 'string' }, ...by },
    usage: 'include <slug> <ballot-id> --why TEXT [--by WHO]',
    about: "Puts an excluded ballot back into the count (the console's Restore); the audit trail keeps who, when and why.",
    run: (context) => integrity.exclusionCommand('include', context),
  },
  send: {
    options: {
      'dry-run': { type: 'boolean' },
      rate: { type: 'string' },
      limit: { type: 'string' },
      only: { type: 'string' },
      preview: { type: 'string' },
      'base-url': { type: 'string' },
      'min-gap': { type: 'string' },
      'resend-unknown': { type: 'boolean' },
      ...by,
    },
    usage:
      'send <slug> invitations|reminders [--dry-run] [--rate N] [--limit N] [--only EMAIL] [--preview EMAIL] [--base-url URL] [--min-gap DAYS] [--resend-unknown] [--by WHO]',
    about:
      "Mails the survey's invitations (to every invited person not sent one) or reminders (to invited people with no ballot whose invitation went, at most one per --min-gap days, default 3) from its mail/ templates, " +
      "over SMTP_URL, else as .eml files under DATA_DIR/mail/<slug>/. --rate caps messages a minute; --limit the messages of this run; --only one address; --preview EMAIL prints that person's message and sends nothing; --dry-run counts who would get one. " +
      'A 5xx marks the person bounced; a 4xx is tried 5 times, then failed (the next run tries again); messages in flight when a run was killed are unknown and go again only with --resend-unknown. Progress and the summary on stderr.',
    run: mail.sendCommand,
  },
  deliveries: {
    options: { out: { type: 'string' } },
    usage: 'deliveries <slug> [--out FILE]',
    about:
      'One CSV line per invited person: email,status,invitations,reminders,last_sent_at,detail; status is not_sent, sent, unknown, failed, bounced, complained or unsubscribed.',
    run: mail.deliveriesCommand,
  },
  bounces: {
    options: { ...by },
    usage: 'bounces <slug> FILE… [--by WHO]',
    about:
      'Reads delivery status notifications (RFC 3464) and abuse reports (RFC 5965), as .eml files or an mbox, and matches each to the message it answers (Message-ID or VERP): 5.x.x marks the person bounced, a report complained, 4.x.x is noted. Reports that match nothing are listed by file and Message-ID.',
    run: mail.bouncesCommand,
  },
  report: {
    options: {
      out: { type: 'string' },
      quiet: { type: 'boolean' },
      ...Object.fromEntries(Object.keys(integrity.THRESHOLD_OPTIONS).map((name) => [name, { type: 'string' as const }])),
      ...unseal,
    },
    usage: `report <slug> --out FILE.html [--quiet] [the signals options]${UNSEAL_USAGE}`,
    about:
      'One self-contained HTML file (no network needed; prints well): response figures, the ranked nominees of each sub-category with their counted and excluded votes, exclusions by reason, the signals and the methodology. Never served by the site.' +
      UNSEAL_ABOUT,
    run: integrity.reportCommand,
  },
  publish: {
    options: { at: { type: 'string' }, force: { type: 'boolean' }, quiet: { type: 'boolean' }, ...unseal },
    usage: 'publish <slug> [--at TIME] [--quiet] [--force --why TEXT [--by WHO]]',
    about:
      "After the close: writes surveys/<slug>/results/ for the operator to commit: results.json (winners per sub-category under the survey's methodology, ballots, exclusions, the ledger's head), " +
      'ledger.jsonl (a hash-chained line per ballot: the hash of its receipt, its status, each vote and whether it counted), methodology.md and verify.mjs (anyone re-tallies with node verify.mjs). ' +
      '--at sets published_at. Before the close only with --force --why (or --unseal --why on a sealed survey), recorded on the audit trail.',
    run: publishCommand,
  },
  verify: {
    options: { quiet: { type: 'boolean' } },
    usage: 'verify <slug> [--quiet]',
    about:
      "An auditor's check: rebuilds the ledger from the database and compares it with the published folder line by line. Exit 0 when they agree; otherwise each ballot stored, changed, excluded, replaced or removed since publication, by its ledger line.",
    run: verifyCommand,
  },
};

/** The commands on the whole database, every survey's: no slug. */
const DATABASE_COMMANDS: Record<
  string,
  { options: Options; usage: string; about: string; run: (options: commands.Context['options'], positionals: string[]) => Promise<void> }
> = {
  backup: {
    options: { out: { type: 'string' }, verify: { type: 'string' }, force: { type: 'boolean' }, quiet: { type: 'boolean' } },
    usage: 'backup --out FILE [--force] [--quiet] | backup --verify FILE',
    about:
      "A consistent copy of the whole database while the API goes on taking ballots: SQLite's VACUUM INTO, or pg_dump --format=custom of DATABASE_URL (pg_dump of the server's version, from the PATH or /usr/lib/postgresql/<version>/bin). " +
      'Checked before it takes the name FILE (never replaced without --force), readable by its owner only; progress, tables and row counts on stderr. ' +
      "--verify FILE checks a copy: SQLite's integrity check (or, for a dump, pg_restore reading every row, and a trial restore into a scratch database when DATABASE_URL reaches a server), the migrations (all of this version's, none unknown) and the rows of each table; exit 1 with a line per problem.",
    run: backupCommand,
  },
  restore: {
    options: { force: { type: 'boolean' }, ...why, ...by },
    usage: 'restore FILE [--force --why TEXT] [--by WHO]',
    about:
      'Puts a backup in place of the database (SQLite: a copy renamed over the file, refused while another process has it open; PostgreSQL: pg_restore --clean --if-exists --single-transaction --no-owner into DATABASE_URL). ' +
      "Checks FILE first and refuses a broken one or a newer version's, changing nothing; an older version's is brought up to date. Refuses a database that holds ballots unless --force --why. " +
      'Records an audit entry restore (the file, its counts, who, why) in every survey of the restored database.',
    run: restoreCommand,
  },
};

/** The commands about the console's operators rather than one survey: no slug. */
const OPERATOR_COMMANDS: Record<string, { options: Options; usage: string; about: string; run: (context: OperatorsContext) => Promise<void> }> = {
  operators: {
    options: { out: { type: 'string' } },
    usage: 'operators [--out FILE]',
    about:
      "Who may use the console (operators.yaml, in PEERVOTE_PRIVATE_DIR when it is there, else SURVEYS_DIR): each operator's address, name and roles, how many passkeys they have and when one was last used, and their open sessions (CSV).",
    run: listOperatorsCommand,
  },
  'operators link': {
    options: { why: { type: 'string' }, 'base-url': { type: 'string' }, ...by },
    usage: 'operators link <email> [--why TEXT] [--by WHO] [--base-url URL]',
    about:
      "Prints a single-use enrolment link for an operator of the file: opened within 15 minutes, it makes their passkey and signs them in. Recorded on the audit trail (without the link). For an operator who has a passkey already (a lost one), it needs --why and ends every session of theirs. --base-url defaults to PEERVOTE_BASE_URL, else http://localhost:4321 (PORT's).",
    run: operatorLinkCommand,
  },
  'operators sign-ins': {
    options: { since: { type: 'string' }, out: { type: 'string' } },
    usage: 'operators sign-ins [--since TIME] [--out FILE]',
    about:
      "The console's sign-in log (CSV, oldest first): every sign-in attempt, won or lost, every passkey check again and every enrolment link asked for by mail, with why it was refused, the operator when one was named, a keyed hash of the client's address and its browser. Never a secret.",
    run: signInsCommand,
  },
  'operators audit': {
    options: { out: { type: 'string' } },
    usage: 'operators audit [--out FILE]',
    about:
      "The audit trail of what concerns the operators rather than one survey (CSV, oldest first): enrolment links made, passkeys added and removed, sessions an owner ended; who (name and address), in which role, when, through what (the command line or the console, and the session's hash), with the chain's columns as `audit <slug>` prints them.",
    run: operatorsAuditCommand,
  },
};

function help(): string {
  const lines = ['Usage: npm run results -- <command> <slug> [options]', ''];
  for (const { usage, about } of Object.values(COMMANDS)) lines.push(`  ${usage}`, `      ${about}`, '');
  lines.push('On the whole database, every survey at once: npm run results -- <command> [options]', '');
  for (const { usage, about } of Object.values(DATABASE_COMMANDS)) lines.push(`  ${usage}`, `      ${about}`, '');
  lines.push("The console's operators: npm run results -- operators [link|sign-ins|audit] [options]", '');
  for (const { usage, about } of Object.values(OPERATOR_COMMANDS)) lines.push(`  ${usage}`, `      ${about}`, '');
  lines.push(
    "The database is the survey API's: DATABASE_URL (PostgreSQL), else DATA_DIR and SQLITE_FILE (default ./data/peervote.sqlite).",
    "The surveys are read from SURVEYS_DIR (default ./surveys). --by defaults to the operating system's user.",
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
const name =
  argv[0] === 'writeins' && ['resolve', 'log', 'publish'].includes(argv[1])
    ? `writeins ${argv[1]}`
    : argv[0] === 'operators' && ['link', 'sign-ins', 'audit'].includes(argv[1])
      ? `operators ${argv[1]}`
      : argv[0];
if (Object.hasOwn(DATABASE_COMMANDS, name)) await runOnDatabase(DATABASE_COMMANDS[name]);
if (Object.hasOwn(OPERATOR_COMMANDS, name)) await runOperatorCommand(name);
const command = COMMANDS[name];
if (!command)
  fail(
    `Unknown command "${argv[0]}"; the commands are export, tally, methodology, writeins [resolve|log|publish], refused, admit, confirm-reservation, release-reservation, invite, responses, receipt, purge-personal, audit, signals, exclude, include, report, publish, verify, send, deliveries, bounces, backup, restore, operators [link|sign-ins|audit] (--help explains them).`,
    2,
  );

/**
 * A command's words after its name, read by its options: a mistake ends the process with the
 * command's usage (exit 2), and `--help` with its usage and what it does (exit 0).
 */
function parseCommand(words: number, described: { options: Options; usage: string; about: string }): ReturnType<typeof parseArgs> {
  let given: ReturnType<typeof parseArgs>;
  try {
    given = parseArgs({
      args: argv.slice(words),
      options: { ...described.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    fail(`${(error as Error).message.split('\n')[0]}. Usage: npm run results -- ${described.usage}`, 2);
  }
  if (given.values.help) {
    process.stdout.write(`Usage: npm run results -- ${described.usage}\n\n${described.about}\n`);
    process.exit(0);
  }
  return given;
}

/** Runs a command on the whole database (DATABASE_COMMANDS), which opens what it needs itself, and ends the process. */
async function runOnDatabase(database: (typeof DATABASE_COMMANDS)[string]): Promise<never> {
  const given = parseCommand(1, database);
  try {
    await database.run(given.values as commands.Context['options'], given.positionals);
  } catch (error) {
    if (error instanceof OperatorError || error instanceof EnvError) fail(error.message);
    fail(`results ${name} failed: ${(error as Error).stack ?? error}`);
  }
  process.exit(process.exitCode ?? 0);
}

/** Runs a command about the console's operators, which names no survey, and exits. */
async function runOperatorCommand(name: string): Promise<never> {
  const command = OPERATOR_COMMANDS[name];
  const parsed = parseCommand(name.split(' ').length, command);
  let db: OperatorsContext['db'] | undefined;
  try {
    ({ db } = await openOperatorDatabase(readServerConfig()));
    await command.run({ db, options: parsed.values as OperatorsContext['options'], rest: parsed.positionals });
    await db.destroy();
  } catch (error) {
    await db?.destroy().catch(() => undefined);
    if (error instanceof OperatorError || error instanceof EnvError || error instanceof ConfigError) fail(error.message);
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
    fail(`results ${name} failed: ${(error as Error).stack ?? error}`);
  }
  process.exit(0);
}

const parsed = parseCommand(name.split(' ').length, command);
const [slug, ...rest] = parsed.positionals;
if (!slug) fail(`Which survey? Usage: npm run results -- ${command.usage}`, 2);

let db: commands.Context['db'] | undefined;
try {
  let slugs: string[];
  try {
    slugs = listSurveySlugs();
  } catch (error) {
    throw new OperatorError(
      `Cannot read the surveys folder ${surveysDir()}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message} (SURVEYS_DIR names it).`,
    );
  }
  if (!slugs.includes(slug)) throw new OperatorError(`There is no survey ${quoted(slug)}; the surveys are ${slugs.join(', ')}.`);
  const survey = loadSurvey(slug);
  const nominees = loadNominees(survey);
  let prepopulation = {};
  if (!command.offline) {
    const config = readServerConfig();
    ({ db } = await openOperatorDatabase(config));
    // The people are read from the database, after a prepopulation changed by hand (or never read
    // by the API) is read into it; invite may be the one to write the survey's first file.
    const key = peopleKey(config);
    if (name !== 'invite' || existsSync(prepopulationFile(survey))) await importPeople(db, survey, key);
    prepopulation = await peopleOf(db, survey.config.project_id, key);
  }
  // publish weighs the close itself (its --force), so its seal is opened there.
  if ((SEALED_COMMANDS as readonly string[]).includes(name) && name !== 'publish') {
    const values = parsed.values as commands.Context['options'];
    await openSeal(db!, survey, {
      command: name,
      unseal: Boolean(values.unseal),
      why: typeof values.why === 'string' ? values.why : undefined,
      actor: commands.who(values),
    });
  }
  await command.run({ db: db!, survey, nominees, prepopulation, options: parsed.values as commands.Context['options'], rest });
  await db?.destroy();
} catch (error) {
  await db?.destroy().catch(() => undefined);
  if (error instanceof OperatorError || error instanceof EnvError || error instanceof ConfigError) fail(error.message);
  if ((error as NodeJS.ErrnoException).code === 'EPIPE') process.exit(0);
  fail(`results ${name} failed: ${(error as Error).stack ?? error}`);
}
