import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/schema.ts';
import { messageById, messageByLocalPart, noteDelay, recordReport, unsubscribeToken } from './delivery.repository.ts';

/** What a report says: a delivery status notification (RFC 3464), an abuse report (RFC 5965), or neither. */
interface MailReport {
  kind: 'dsn' | 'arf' | 'other';
  /** The DSN's status (`5.1.1`), when it has one. */
  status?: string;
  /** The Message-IDs it names (of the message it answers), in the order found. */
  messageIds: string[];
  /** Local parts after `+` in the addresses it was delivered to: a VERP return path. */
  verp: string[];
  /** The report's own Message-ID, to name it when it matches nothing. */
  ownId: string;
  /** A line for the record: the diagnostic, or the feedback type. */
  detail: string;
}

/** Splits a file into messages: an mbox (lines `From …` between messages) or one `.eml`. */
function splitMailbox(text: string): string[] {
  const normal = text.replace(/\r\n?/g, '\n');
  if (!normal.startsWith('From ')) return [normal];
  return normal
    .split(/^From [^\n]*\n/m)
    .filter((part) => part.trim())
    .map((part) => part.replace(/^>(>*From )/gm, '$1'));
}

const headerOf = (raw: string) => raw.slice(0, raw.search(/\n\n|$/)).replace(/\n[ \t]+/g, ' ');
const field = (header: string, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(header)?.[1]?.trim() ?? '';

/** Reads one report: its kind, status, the Message-IDs of the message it answers, any VERP local part. */
function readReport(raw: string): MailReport {
  const text = raw.replace(/\r\n?/g, '\n');
  const header = headerOf(text);
  const body = text.slice(header.length);
  const contentType = field(header, 'Content-Type').toLowerCase();
  const kind =
    /report-type="?feedback-report/.test(contentType) || /^Feedback-Type:/im.test(body)
      ? 'arf'
      : /report-type="?delivery-status/.test(contentType) || (/^Status:\s*\d\.\d+\.\d+/im.test(body) && /^(Final|Original)-Recipient:/im.test(body))
        ? 'dsn'
        : 'other';
  const statuses = [...body.matchAll(/^Status:\s*([245]\.\d{1,3}\.\d{1,3})/gim)].map((match) => match[1]);
  const status = statuses.find((value) => value.startsWith('5')) ?? statuses.find((value) => value.startsWith('4')) ?? statuses[0];
  const ids = [...body.matchAll(/^(?:Original-)?Message-ID:\s*(<[^>\s]+>)/gim)].map((match) => match[1]);
  for (const name of ['In-Reply-To', 'References']) ids.push(...(field(header, name).match(/<[^>\s]+>/g) ?? []));
  const verp = ['To', 'Delivered-To', 'X-Original-To', 'Envelope-To']
    .map((name) => /\+([\w-]{16,})@/.exec(field(header, name))?.[1])
    .filter((local): local is string => Boolean(local));
  const diagnostic = /^Diagnostic-Code:\s*(.*(?:\n[ \t].*)*)/im.exec(body)?.[1]?.replace(/\s+/g, ' ').trim();
  const feedback = field(body.replace(/\n[ \t]+/g, ' '), 'Feedback-Type');
  return {
    kind,
    status,
    messageIds: [...new Set(ids)],
    verp,
    ownId: field(header, 'Message-ID') || '(no Message-ID)',
    detail: (kind === 'arf' ? `complaint (${feedback || 'abuse'})` : `${status ?? ''} ${diagnostic ?? ''}`).trim().slice(0, 300),
  };
}

/** What an import did: people marked bounced or complained, delays noted, reports that named nothing Peervote sent. */
export interface BounceSummary {
  reports: number;
  bounced: number;
  complained: number;
  delayed: number;
  /** Delivered notices and other reports that change nothing. */
  ignored: number;
  unmatched: Array<{ file: string; messageId: string }>;
}

/**
 * Reads DSNs and abuse reports from files (`.eml` or mbox) and applies each to the message it
 * answers, as importReportTexts does.
 */
export async function importReports(
  db: Kysely<Database>,
  projectId: string,
  secret: string,
  files: readonly string[],
  now = new Date(),
): Promise<BounceSummary> {
  const sources: Array<{ name: string; text: string }> = [];
  for (const file of files) sources.push({ name: file, text: await readFile(file, 'utf8') });
  return importReportTexts(db, projectId, secret, sources, now);
}

/** True when a text reads as mail: an mbox's first `From ` line, or a header field on its first line. */
export function looksLikeMail(text: string): boolean {
  return /^(From |[\x21-\x39\x3b-\x7e]+:)/.test(text.replace(/^\uFEFF/, ''));
}

/**
 * Reads DSNs and abuse reports from texts (each an `.eml` or an mbox, named for the list of the
 * unmatched) and applies each to the message it answers (by Message-ID, or a VERP return path):
 * a 5.x.x status marks the person bounced, an abuse report complained; a 4.x.x delay is noted on
 * the message, not final. The command line's `bounces` and the console's upload both come here.
 */
export async function importReportTexts(
  db: Kysely<Database>,
  projectId: string,
  secret: string,
  sources: ReadonlyArray<{ name: string; text: string }>,
  now = new Date(),
): Promise<BounceSummary> {
  const summary: BounceSummary = { reports: 0, bounced: 0, complained: 0, delayed: 0, ignored: 0, unmatched: [] };
  for (const { name: file, text } of sources) {
    for (const raw of splitMailbox(text)) {
      summary.reports++;
      const report = readReport(raw);
      let message: Awaited<ReturnType<typeof messageById>>;
      for (const id of report.messageIds) if ((message ??= await messageById(db, id))) break;
      for (const local of report.verp) if ((message ??= await messageByLocalPart(db, local))) break;
      if (!message || message.project_id !== projectId) {
        summary.unmatched.push({ file, messageId: report.ownId });
        continue;
      }
      const at = now.toISOString();
      const token = unsubscribeToken(secret, projectId, message.email_key);
      if (report.kind === 'arf') {
        await recordReport(db, message, 'complained', report.detail, at, token);
        summary.complained++;
      } else if (report.status?.startsWith('5')) {
        await recordReport(db, message, 'bounced', report.detail, at, token);
        summary.bounced++;
      } else if (report.status?.startsWith('4')) {
        await noteDelay(db, message.message_id, `delayed: ${report.detail}`);
        summary.delayed++;
      } else summary.ignored++;
    }
  }
  return summary;
}
