// `responses` and `receipt`: who has voted, and what became of one voter's ballot.
import type { Context } from './results-commands.ts';
import { baseUrl } from './invite-command.ts';
import { invitedPeople, responseCounts } from '../../src/results/voters/responses.ts';
import { receiptStatus } from '../../src/results/voters/receipt-status.ts';
import { greetingName, personalLink } from '../../src/results/voters/roster.ts';
import { REASON_TEXT } from '../../src/results/tally/rules.ts';
import { formatReceipt } from '../../src/survey/published/receipt-code.ts';
import { csvLine } from '../../src/results/export/csv.ts';
import { OperatorError } from '../../src/results/operator.ts';
import { openOutput } from './output.ts';
import { deliveryRows } from '../../src/results/delivery/deliveries.ts';
import { DELIVERY_STATUSES } from '../../src/results/delivery/delivery-status.ts';
import { quoted } from '../../src/survey/errors.ts';

const text = (value: string | boolean | undefined) => (typeof value === 'string' ? value : undefined);
const percent = (part: number, whole: number) => (whole ? `${Math.round((part / whole) * 100)}%` : '-');

/**
 * `responses`: invited, responded and pending (opened but not submitted, never opened), overall
 * and per value of a roster column (`--by`); with `--pending`, the people who have not voted,
 * with their personal links, for a reminder mailing.
 */
export async function responsesCommand({ db, survey, prepopulation, options }: Context): Promise<void> {
  const format = text(options.format) ?? (options.pending ? 'csv' : 'table');
  if (format !== 'table' && format !== 'csv') throw new OperatorError(`--format must be table or csv, got ${quoted(format)}.`);
  const column = text(options.by);
  const people = await invitedPeople(db, survey.config.project_id, prepopulation);
  if (!people.length)
    throw new OperatorError(`${survey.slug} has no personal links to track; make them with: npm run results -- invite ${survey.slug} --roster people.csv`);
  if (column && !people.some((one) => one.person[column] !== undefined)) {
    const columns = [...new Set(people.flatMap((one) => Object.keys(one.person)))].filter((name) => name !== 'email' && name !== 'name');
    throw new OperatorError(`No invited person has a ${quoted(column)}; --by takes one of ${columns.join(', ')}.`);
  }
  const output = openOutput(text(options.out));
  if (options.pending) {
    const url = baseUrl(options);
    await output.write(csvLine(['name', 'email', 'url', 'status', 'first_opened_at', 'last_opened_at']));
    for (const one of people.filter((p) => p.status !== 'responded')) {
      await output.write(
        csvLine([
          greetingName(one.person, survey.config),
          one.person.email as string | undefined,
          personalLink(url, survey.slug, one.secret),
          one.status,
          one.firstOpenedAt,
          one.lastOpenedAt,
        ]),
      );
    }
    await output.close();
    const pending = people.filter((p) => p.status !== 'responded').length;
    process.stderr.write(
      `responses: ${pending} of ${people.length} invited people have not voted${text(options.out) ? `; written to ${text(options.out)}` : ''}.\n`,
    );
    return;
  }
  const counts = responseCounts(people, column);
  if (format === 'csv') {
    await output.write(csvLine([column ?? 'group', 'invited', 'responded', 'pending', 'opened_not_submitted', 'never_opened', 'response_rate']));
    for (const c of counts)
      await output.write(csvLine([c.group, c.invited, c.responded, c.opened + c.notOpened, c.opened, c.notOpened, percent(c.responded, c.invited)]));
  } else {
    const head = column ?? '';
    const width = Math.max(head.length, ...counts.map((c) => c.group.length));
    const row = (cells: Array<string | number>) =>
      `${String(cells[0]).padEnd(width)}  ${cells
        .slice(1)
        .map((cell) => String(cell).padStart(9))
        .join('  ')}\n`;
    await output.write(row([head, 'invited', 'responded', 'rate', 'pending', 'opened', 'unopened']));
    for (const c of counts)
      await output.write(row([c.group, c.invited, c.responded, percent(c.responded, c.invited), c.opened + c.notOpened, c.opened, c.notOpened]));
    await output.write('\n"opened": the link was opened and no ballot sent; "unopened": never opened. Opening a link never uses it up.\n');
    // Where the invitations and reminders Peervote sent stand (npm run results -- deliveries lists each person).
    const deliveries = await deliveryRows(db, survey, prepopulation);
    const mailCounts = DELIVERY_STATUSES.map((status) => `${deliveries.filter((row) => row.status === status).length} ${status}`);
    await output.write(`Mail: ${mailCounts.join(', ')}.\n`);
  }
  await output.close();
}

/** `receipt`: when the ballot with this receipt came in, and whether the tally counts its votes (and if not, why). */
export async function receiptCommand({ db, survey, nominees, prepopulation, rest }: Context): Promise<void> {
  const [code] = rest;
  if (!code) throw new OperatorError(`Which receipt? Usage: npm run results -- receipt ${survey.slug} <code>`);
  const status = await receiptStatus(db, { survey, nominees, prepopulation, code });
  const { ballot } = status;
  const lines = [
    `Receipt ${formatReceipt(status.code)}: ballot ${ballot.id}, received ${ballot.created_at} by the ${ballot.link} link${ballot.verified_email ? ' from a verified address' : ''}.`,
  ];
  if (ballot.replaced_at) lines.push(`It was replaced by a later ballot on ${ballot.replaced_at} (ballot ${ballot.replaced_by}): the tally does not count it.`);
  else if (status.votes === 0) lines.push('It carries no votes the tally can count yet (no nominations, or write-ins awaiting a decision).');
  else if (!status.exclusions.length) lines.push(`The tally counts it: all ${status.votes} of its votes.`);
  else {
    lines.push(
      status.counted
        ? `The tally counts ${status.counted} of its ${status.votes} votes; these are left out:`
        : `The tally does not count it: none of its ${status.votes} votes; each is left out:`,
    );
    for (const e of status.exclusions) {
      const reason = e.verdict.reason!;
      lines.push(
        `  ${e.verdict.vote.subcategory}: ${e.verdict.vote.nomineeId}${e.nomineeName ? ` (${e.nomineeName})` : ''}: ${reason}, ${e.verdict.detail ?? REASON_TEXT[reason]}`,
      );
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
