// `operators`: who may use the console (surveys/operators.yaml), with their passkeys and open
// sessions; `operators link EMAIL`: an operator's single-use enrolment link.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/server/db/schema.ts';
import { listSurveySlugs } from '../../src/survey/config/loader.ts';
import { operatorsFile, readOperators } from '../../src/survey/operators/operators-file.ts';
import { operatorKey, type Operator } from '../../src/survey/operators/operators.struct.ts';
import { quoted } from '../../src/survey/errors.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { credentialSummary } from '../../src/server/console/passkeys.repository.ts';
import { openSessions } from '../../src/server/console/sessions.ts';
import { CONSOLE_AUDIT_PROJECT, issueEnrolmentLink } from '../../src/server/console/enrolment.ts';
import { signInsSince } from '../../src/server/console/sign-in-log.repository.ts';
import { auditTrail } from '../../src/server/db/audit.repository.ts';
import { writeAuditCsv } from './audit-command.ts';
import { openOutput } from './output.ts';
import { who } from './results-commands.ts';

/** What an operators command gets: the database, its options and the words after its name. */
export interface OperatorsContext {
  db: Kysely<Database>;
  options: Record<string, string | boolean | undefined>;
  rest: string[];
}

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);

/** The operators file as the console reads it, checked against the surveys there are; a mistake is the operator's to mend, in one line a problem. */
function operators(): Operator[] {
  return readOperators(operatorsFile(), listSurveySlugs());
}

/** The console's address for a link: `--base-url`, else PEERVOTE_BASE_URL, else `npm start`'s console, at localhost (a passkey cannot belong to an IP address). */
function consoleBase(options: OperatorsContext['options']): string {
  const url = text(options['base-url']) ?? process.env.PEERVOTE_BASE_URL ?? `http://localhost:${process.env.PORT ?? 4321}`;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw new OperatorError(`--base-url must be the site's address, such as https://vote.example.com, got ${quoted(url)}.`);
  return new URL(url).origin;
}

/** A role map in one cell: `top-doctors-demo:owner *:auditor`. */
const rolesCell = (roles: Operator['roles']) =>
  Object.entries(roles)
    .map(([slug, role]) => `${slug}:${role}`)
    .join(' ');

/** `operators`: every operator of the file, with their roles, passkeys (how many, last used) and open sessions, as CSV. */
export async function listOperatorsCommand({ db, options }: OperatorsContext): Promise<void> {
  const list = operators();
  const passkeys = await credentialSummary(db);
  const now = new Date();
  const output = openOutput(text(options.out));
  await output.write(csvLine(['email', 'name', 'roles', 'passkeys', 'passkey_last_used_at', 'open_sessions']));
  for (const operator of list) {
    const held = passkeys.get(operator.key);
    const sessions = await openSessions(db, operator.key, now);
    await output.write(csvLine([operator.email, operator.name, rolesCell(operator.roles), held?.passkeys ?? 0, held?.lastUsedAt ?? '', sessions.length]));
  }
  await output.close();
  if (list.length === 0) process.stderr.write(`No operators yet: add them to ${operatorsFile()}.\n`);
}

/**
 * `operators link EMAIL`: a single-use enrolment link for an operator of the file, valid 15
 * minutes, printed on standard output and recorded on the audit trail (never the link itself).
 * For an operator who has a passkey already (theirs is lost), it needs --why and ends every
 * session of theirs.
 */
export async function operatorLinkCommand({ db, options, rest }: OperatorsContext): Promise<void> {
  const [email] = rest;
  if (!email) throw new OperatorError("operators link needs the operator's address: operators link ana@metrohealth.example");
  const operator = operators().find((one) => one.key === operatorKey(email));
  if (!operator) throw new OperatorError(`${quoted(email)} is no operator of ${operatorsFile()}; add them there first.`);
  const passkeys = (await credentialSummary(db)).get(operator.key)?.passkeys ?? 0;
  const why = text(options.why)?.trim();
  if (passkeys > 0 && !why)
    throw new OperatorError(
      `${operator.email} has ${passkeys === 1 ? 'a passkey' : `${passkeys} passkeys`} already: a new link is for a lost passkey, ends their sessions and is audited. Say why with --why "…".`,
    );
  const actor = who(options);
  const link = await issueEnrolmentLink(
    db,
    operator,
    { via: 'cli', issuedBy: `cli:${actor}`, audit: { actor, via: 'command line', reason: why } },
    consoleBase(options),
    new Date(),
  );
  process.stdout.write(`${link.url}\n`);
  const ended = link.endedSessions ? ` It ended ${link.endedSessions === 1 ? 'their session' : `their ${link.endedSessions} sessions`}.` : '';
  process.stderr.write(`Enrolment link for ${operator.name} <${operator.email}>: it makes one passkey, until ${link.expiresAt}.${ended}\n`);
}

/** `operators sign-ins`: the console's sign-in log as CSV, oldest first: every attempt, won or lost, and every link asked for by mail; `--since` a time. */
export async function signInsCommand({ db, options }: OperatorsContext): Promise<void> {
  const since = text(options.since);
  if (since !== undefined && Number.isNaN(Date.parse(since)))
    throw new OperatorError(`--since must be a time such as 2027-03-01 or 2027-03-01T09:00:00Z, got ${quoted(since)}.`);
  const output = openOutput(text(options.out));
  await output.write(csvLine(['id', 'at', 'way', 'outcome', 'operator', 'reason', 'credential_id', 'session_id', 'client_hash', 'agent']));
  for (const row of await signInsSince(db, since && new Date(since).toISOString())) {
    await output.write(
      csvLine([row.id, row.at, row.way, row.outcome, row.operator, row.reason, row.credential_id, row.session_id, row.client_hash, row.agent]),
    );
  }
  await output.close();
}

/** `operators audit`: the audit trail of what concerns the operators rather than one survey (links, passkeys, sessions ended), as CSV, oldest first. */
export async function operatorsAuditCommand({ db, options }: OperatorsContext): Promise<void> {
  const output = openOutput(text(options.out));
  // The columns of `audit <slug>`: who signed each act, through what, and the chain.
  await writeAuditCsv(output, await auditTrail(db, CONSOLE_AUDIT_PROJECT));
  await output.close();
}
