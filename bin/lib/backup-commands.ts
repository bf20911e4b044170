// `backup` and `restore`: a copy of the survey API's whole database (every survey) taken while
// it runs, the check of a copy, and putting one back in place of the database.
import { chmodSync, existsSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import { readServerConfig } from '../../src/server/config.ts';
import { migrateToLatest } from '../../src/server/db/database.ts';
import { appendAudit } from '../../src/server/db/audit.repository.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { listSurveySlugs, loadSurvey } from '../../src/survey/config/loader.ts';
import { backupKind, describeCheck, formatBytes, newerWords, problemLines, type BackupKind, type HeldBallots } from '../../src/results/backup/backup-check.ts';
import { checkSqlite, copySqlite, holdSqlite, syncToDisk } from '../../src/results/backup/sqlite-backup.ts';
import { checkPostgresDump, dumpPostgres, holdPostgres } from '../../src/results/backup/postgres-backup.ts';
import { who } from './results-commands.ts';

type Options = Record<string, string | boolean | undefined>;

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);
const plural = (count: number, word: string) => `${count.toLocaleString('en')} ${word}${count === 1 ? '' : 's'}`;

/** The PostgreSQL URL without its password, for messages. */
function shown(url: string): string {
  const address = new URL(url);
  if (address.password) address.password = '***';
  return address.toString();
}

/** The kind of a backup file, by its first bytes; a file of neither kind is one line. */
function kindOf(file: string): BackupKind {
  if (!existsSync(file)) throw new OperatorError(`There is no file ${file}.`);
  if (statSync(file).isDirectory()) throw new OperatorError(`${file} is a folder, not a backup file.`);
  const kind = backupKind(file);
  if (!kind)
    throw new OperatorError(`${file} is neither an SQLite database nor a dump in pg_dump's custom format: it is no backup of the survey API's database.`);
  return kind;
}

/** `backup --verify FILE`: what was checked and counted (stdout); each problem in one line (stderr) and exit 1. */
async function verifyBackup(file: string): Promise<void> {
  const { databaseUrl } = readServerConfig();
  const check = kindOf(file) === 'sqlite' ? await checkSqlite(file) : await checkPostgresDump(file, databaseUrl);
  if (check.kind === 'postgres' && !databaseUrl && !check.problems.length)
    check.checked.push('not restored for a trial: DATABASE_URL names no server to make a scratch database on');
  process.stdout.write(`${describeCheck(check).join('\n')}\n`);
  const problems = problemLines(check, 'verify');
  if (problems.length) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write('Good: a whole backup that this version restores as it is.\n');
}

/** Progress on standard error: lines, and steps rewritten in place on a terminal (in a log, the line after them says what was done); silent when `quiet`. */
function say(quiet: boolean): { line(text: string): void; step(text: string): void } {
  const tty = process.stderr.isTTY;
  let open = false;
  return {
    line(text) {
      if (quiet) return;
      process.stderr.write(`${open ? '\n' : ''}backup: ${text}\n`);
      open = false;
    },
    step(text) {
      if (quiet || !tty) return;
      process.stderr.write(`\r\x1b[Kbackup: ${text}`);
      open = true;
    },
  };
}

/**
 * Runs `work` with `file` removed however it ends: returned, thrown, or stopped by Ctrl-C or a
 * SIGTERM (a half-written copy must not stay behind, even under a name of its own).
 */
async function withPartFile<T>(file: string, work: () => Promise<T>): Promise<T> {
  const stop = (signal: NodeJS.Signals) => {
    rmSync(file, { force: true });
    process.stderr.write(`backup: stopped by ${signal}; nothing written.\n`);
    process.exit(130);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    return await work();
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    rmSync(file, { force: true });
  }
}

/**
 * `backup --out FILE`: a consistent copy of the whole database while the API goes on taking
 * ballots (SQLite's VACUUM INTO, or pg_dump's custom format), written beside FILE, checked, and
 * only then renamed into place, readable by its owner only. `--verify FILE` checks a copy.
 */
export async function backupCommand(options: Options, positionals: string[]): Promise<void> {
  const verify = text(options.verify);
  const out = text(options.out);
  if (positionals.length)
    throw new OperatorError(`backup takes no survey nor file of its own (got ${positionals.join(' ')}): backup --out FILE, or backup --verify FILE.`);
  if (verify && out) throw new OperatorError('backup takes --out FILE to write a backup or --verify FILE to check one, not both.');
  if (verify) return verifyBackup(verify);
  if (!out) throw new OperatorError('backup needs --out FILE, where to write the copy (or --verify FILE to check one).');
  const settings = readServerConfig();
  const target = path.resolve(out);
  const folder = path.dirname(target);
  if (existsSync(target) && statSync(target).isDirectory()) throw new OperatorError(`${out} is a folder: name the backup file in it.`);
  if (existsSync(target) && !options.force) throw new OperatorError(`${out} exists already: name another file, or add --force to replace it.`);
  if (!existsSync(folder)) throw new OperatorError(`Cannot write ${out}: there is no folder ${folder}.`);
  const source = settings.sqliteFile;
  if (!settings.databaseUrl) {
    if (!existsSync(source))
      throw new OperatorError(
        `There is no SQLite file at ${source} to back up (set DATA_DIR or SQLITE_FILE as the survey API has them, or DATABASE_URL for PostgreSQL).`,
      );
    if (existsSync(target) && realpathSync(target) === realpathSync(source)) throw new OperatorError(`${out} is the database itself: name another file.`);
  }
  const progress = say(Boolean(options.quiet));
  const started = performance.now();
  const temp = path.join(folder, `.${path.basename(target)}.${process.pid}.part`);
  await withPartFile(temp, async () => {
    if (settings.databaseUrl) {
      progress.line(`dumping the PostgreSQL database ${shown(settings.databaseUrl)} with pg_dump…`);
      let tables = 0;
      const dumper = await dumpPostgres(settings.databaseUrl, temp, (table) => progress.step(`table ${++tables}: ${table}`));
      progress.line(`pg_dump ${dumper.version} (${dumper.file}) dumped ${plural(tables, 'table')}.`);
    } else {
      progress.line(`copying ${source} (${formatBytes(statSync(source).size)}) into ${out}…`);
      copySqlite(source, temp);
    }
    syncToDisk(temp);
    progress.line('checking the copy…');
    const check = settings.databaseUrl ? await checkPostgresDump(temp) : await checkSqlite(temp);
    check.file = out;
    const problems = problemLines(check, 'backup');
    if (problems.length) {
      process.stderr.write(`${problems.join('\n')}\n`);
      throw new OperatorError(`The copy failed its check: ${out} was not written.`);
    }
    // A backup holds every voter's answers: for its owner's eyes only, like the database.
    chmodSync(temp, 0o600);
    renameSync(temp, target);
    syncToDisk(folder);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    progress.line(`wrote ${out} (${formatBytes(statSync(target).size)}) in ${seconds} s, readable by its owner only.`);
    if (!options.quiet) process.stderr.write(`${describeCheck(check).join('\n')}\n`);
    if (check.behind.length)
      progress.line(`the database lacks ${plural(check.behind.length, 'migration')} of this version: the API running on it is older; restore applies them.`);
    if (check.newer.length) progress.line(newerWords(check).replace(/^it was taken by/, 'the database was migrated by'));
  });
}

/** Every survey a restore concerns: those with rows in the restored database, and those in the surveys folder. */
async function projectsOf(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ project_id: string }>`
    SELECT project_id FROM ballots UNION SELECT project_id FROM refused_ballots UNION SELECT project_id FROM audit_log`.execute(db);
  const projects = new Set(rows.map((row) => row.project_id));
  try {
    for (const slug of listSurveySlugs()) {
      try {
        projects.add(loadSurvey(slug).config.project_id);
      } catch {
        // A survey whose files do not load now is not the restore's to judge.
      }
    }
  } catch {
    // No surveys folder here: the database's own surveys.
  }
  return [...projects].sort();
}

/** "1,234 ballots and 5 refused ballots". */
const heldWords = (held: HeldBallots) => `${plural(held.ballots, 'ballot')}${held.refused ? ` and ${plural(held.refused, 'refused ballot')}` : ''}`;

/**
 * `restore FILE`: checks the backup (as `backup --verify`), refuses one that is broken or from a
 * newer version, and a database that holds ballots unless `--force --why`; then puts the backup
 * in place of the database, applies the migrations it lacks, and records an audit entry
 * `restore` in every survey it concerns, in the restored database.
 */
export async function restoreCommand(options: Options, positionals: string[]): Promise<void> {
  const [file, ...more] = positionals;
  if (!file || more.length) throw new OperatorError('restore takes one backup file: restore FILE [--force --why "…"] [--by WHO].');
  const why = text(options.why)?.trim();
  const force = Boolean(options.force);
  if (force && !why) throw new OperatorError('--force replaces the ballots the database holds: say why with --why "…", for the audit trail.');
  const settings = readServerConfig();
  const kind = kindOf(file);
  if (kind === 'sqlite' && settings.databaseUrl)
    throw new OperatorError(
      `${file} is an SQLite backup, but DATABASE_URL names a PostgreSQL database: restore it with DATABASE_URL unset (DATA_DIR and SQLITE_FILE naming the file).`,
    );
  if (kind === 'postgres' && !settings.databaseUrl)
    throw new OperatorError(`${file} is a PostgreSQL dump, but DATABASE_URL is not set: set it to the PostgreSQL database to restore into.`);
  process.stderr.write(`restore: checking ${file}…\n`);
  const check = kind === 'sqlite' ? await checkSqlite(file) : await checkPostgresDump(file);
  process.stderr.write(`${describeCheck(check).join('\n')}\n`);
  const problems = problemLines(check, 'restore');
  if (problems.length) {
    process.stderr.write(`${problems.join('\n')}\nrestore: nothing changed.\n`);
    process.exitCode = 1;
    return;
  }
  const where = settings.databaseUrl ? shown(settings.databaseUrl) : settings.sqliteFile;
  const target = settings.databaseUrl ? await holdPostgres(settings.databaseUrl) : holdSqlite(settings.sqliteFile);
  try {
    const unreadable = 'unreadable' in target ? target.unreadable : undefined;
    if (unreadable && !force) throw new OperatorError(`${where} cannot be read (${unreadable}): add --force --why "…" to restore over it.`);
    if (target.held && !force)
      throw new OperatorError(
        `${where} holds ${heldWords(target.held)}, which the restore would replace with the backup's ${plural(check.rows.ballots ?? 0, 'ballot')}: add --force --why "…" to restore over them (the audit trail keeps who, when and why).`,
      );
    if ('warning' in target && target.warning) process.stderr.write(`restore: ${target.warning}\n`);
    process.stderr.write(`restore: putting ${path.basename(file)} in place of ${where}…\n`);
    let projects: string[] = [];
    await target.replace(file, async (db) => {
      await migrateToLatest(db);
      await db.transaction().execute(async (trx) => {
        projects = await projectsOf(trx);
        for (const projectId of projects) {
          await appendAudit(trx, {
            projectId,
            actor: who(options),
            action: 'restore',
            subject: path.basename(file),
            reason: why ?? null,
            details: {
              kind: check.kind,
              migrations: check.applied?.length ?? 0,
              migrations_applied_after: check.behind,
              rows: check.rows,
              replaced: target.held ?? null,
            },
          });
        }
      });
    });
    const restored = { ballots: check.rows.ballots ?? 0, refused: check.rows.refused_ballots ?? 0 };
    const lines = [`Restored ${file} into ${where}: ${heldWords(restored)}${target.held ? `, in place of ${heldWords(target.held)}` : ''}.`];
    if (check.behind.length) lines.push(`Applied the ${plural(check.behind.length, 'migration')} of this version it lacked.`);
    lines.push(
      projects.length
        ? `Audit entry "restore" recorded in ${projects.join(', ')}.`
        : 'No survey in the database nor in the surveys folder: no audit entry recorded.',
    );
    if (check.kind === 'sqlite') lines.push('Start the API again: it opens the restored database.');
    else if ('others' in target && target.others)
      lines.push(`${plural(target.others, 'other connection')} to the database (a running API?) see the restored data from now on.`);
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await target.release();
  }
}
