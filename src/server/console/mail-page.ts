import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailRunRow } from '../db/tables/mail-runs.table.ts';
import { database } from '../db/database.ts';
import { serverConfig } from '../config.ts';
import type { ServerSurvey } from '../surveys.ts';
import { peopleKey, peopleOf, personByContact } from '../people/people.repository.ts';
import { peopleTotals } from './console-views.repository.ts';
import { recipientKey } from '../mail/mail.repository.ts';
import { runCounts, surveyRun } from '../mail/mail-runs.repository.ts';
import { signalsSecret } from '../intake/signals-salt.ts';
import { UPLOAD_LIMIT } from './console-guard.ts';
import { surveyOfOperator } from './refused-page.ts';
import { campaignMessages, sendCampaign, type Campaign } from '../../results/delivery/send.ts';
import { unsubscribeToken } from '../../results/delivery/delivery.repository.ts';
import { OperatorError } from '../../results/operator.ts';
import { rosterAddress } from '../../survey/people/voter.ts';
import { isExpired } from '../../survey/people/link.ts';
import { may } from '../../survey/operators/operator-rights.ts';
import type { ConsoleVisit, MailMessageView, MailPageView, MailRunView } from '../../survey/operators/console-views.ts';

// A survey's mail page in the console (/console/{slug}/mail/), for a manager or an owner: the
// latest send run and how far it is, one person's message previewed, a dry run, and the survey's
// messages by status, newest first, a page at a time by keyset on (created_at, message_id). The
// acts (a run started, a bounce report read) are mail-acts.ts.

/** Messages a page of the table shows. */
const PAGE_SIZE = 50;
/** The rate a run is offered at, and the most it takes (messages a minute). */
const RATE_DEFAULT = 60;
export const RATE_MAX = 6000;
/** A message's fates and kinds, as the table filters them. */
const STATUSES = ['queued', 'sending', 'sent', 'unknown', 'failed', 'bounced', 'complained'] as const;
const KINDS = ['invitation', 'reminder', 'receipt'] as const;
/** A campaign's name in an address (`?preview=invitations`). */
const CAMPAIGNS: Record<string, Campaign> = { invitations: 'invitation', reminders: 'reminder' };

/** The campaign an address or a form names (`invitations`, `reminders`), if it names one. */
export function campaignOf(text: string | null | undefined): Campaign | undefined {
  return Object.hasOwn(CAMPAIGNS, text ?? '') ? CAMPAIGNS[text ?? ''] : undefined;
}

/** The address of a survey's mail page. */
export function mailPath(slug: string): string {
  return `/console/${slug}/mail/`;
}

/** The site's address for the links a message carries: PEERVOTE_BASE_URL, else the console's own origin. */
export function siteAddress(origin: string): string {
  return serverConfig().baseUrl ?? origin;
}

/** A run as the page shows it, with its messages counted (an ended run's, as it kept them). */
export async function runView(db: Kysely<Database>, run: MailRunRow): Promise<MailRunView> {
  const counts = run.state !== 'running' && run.counts ? (JSON.parse(run.counts) as Record<string, number>) : await runCounts(db, run.id);
  const n = (status: string) => counts[status] ?? 0;
  const handed = Object.values(counts).reduce((sum, one) => sum + one, 0);
  return {
    id: run.id,
    campaign: run.campaign,
    rate: run.rate,
    startedBy: run.started_by,
    startedAt: run.started_at,
    state: run.state,
    total: run.total,
    sent: n('sent'),
    failed: n('failed') + n('bounced') + n('complained'),
    unknown: n('unknown') + (run.state === 'running' ? 0 : n('sending')),
    left: run.total === null ? null : run.state === 'running' ? Math.max(0, run.total - handed) + n('sending') : 0,
    skipped: Object.entries(JSON.parse(run.skipped ?? '{}') as Record<string, number>),
    ...(run.ended_at ? { endedAt: run.ended_at } : {}),
    ...(run.outcome ? { outcome: run.outcome } : {}),
  };
}

/** A place in the table from the address: before a message (`created_at` and id, as `before=` carries them). */
function placeOf(query: URLSearchParams): { createdAt: string; messageId: string } | undefined {
  const [createdAt, messageId] = (query.get('before') ?? '').split(' ', 2);
  return createdAt && messageId && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(createdAt) && messageId.length <= 300 ? { createdAt, messageId } : undefined;
}

/** A page of a survey's messages, newest first, of a status and a kind when asked. */
async function messagePage(db: Kysely<Database>, projectId: string, filter: { status: string; kind: string }, place: ReturnType<typeof placeOf>) {
  let query = db
    .selectFrom('mail_messages')
    .select(['message_id', 'recipient', 'kind', 'status', 'created_at', 'sent_at', 'detail'])
    .where('project_id', '=', projectId);
  if (filter.status) query = query.where('status', '=', filter.status as (typeof STATUSES)[number]);
  if (filter.kind) query = query.where('kind', '=', filter.kind as (typeof KINDS)[number]);
  if (place)
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', place.createdAt), eb.and([eb('created_at', '=', place.createdAt), eb('message_id', '<', place.messageId)])]),
    );
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('message_id', 'desc')
    .limit(PAGE_SIZE + 1)
    .execute();
  return { rows: rows.slice(0, PAGE_SIZE), more: rows.length > PAGE_SIZE };
}

/** One person's message as it will leave: the address asked for, else the first person on the roster with one. */
async function preview(db: Kysely<Database>, survey: ServerSurvey, campaign: Campaign, to: string, origin: string): Promise<MailPageView['preview']> {
  const config = serverConfig();
  const key = peopleKey(config);
  const projectId = survey.config.project_id;
  const found = to ? await personByContact(db, projectId, { email: recipientKey(to) }, key) : await firstWithAddress(db, survey, key);
  const address = found && rosterAddress(found.person, survey.config);
  if (!found || !address) return { campaign, problem: to ? 'No one on the roster has this address.' : 'No one on the roster has an address to mail.' };
  const recipient = { secret: found.secret, person: found.person, address, key: recipientKey(address) };
  const { mail } = campaignMessages(survey, campaign, siteAddress(origin))(recipient, unsubscribeToken(signalsSecret(config), projectId, recipient.key));
  return { campaign, to: address, subject: mail.subject, text: mail.text, html: mail.html };
}

/** The first person on the roster (in its order) with an address. */
async function firstWithAddress(db: Kysely<Database>, survey: ServerSurvey, key: ReturnType<typeof peopleKey>) {
  const row = await db
    .selectFrom('people')
    .select('email_key')
    .where('project_id', '=', survey.config.project_id)
    .where('email_key', '!=', '')
    .orderBy('position')
    .limit(1)
    .executeTakeFirst();
  return row ? personByContact(db, survey.config.project_id, { email: row.email_key }, key) : undefined;
}

/** Whom a campaign would mail now and whom it would skip, by reason, as `send --dry-run` says it. */
async function dryRun(db: Kysely<Database>, survey: ServerSurvey, campaign: Campaign, origin: string): Promise<MailPageView['dryRun']> {
  const config = serverConfig();
  const prepopulation = await peopleOf(db, survey.config.project_id, peopleKey(config));
  const transport = { description: 'none (a dry run)', send: () => Promise.reject(new Error('A dry run sends nothing.')), close: () => undefined };
  try {
    const summary = await sendCampaign(db, survey, prepopulation, transport, config.mail, signalsSecret(config), {
      campaign,
      baseUrl: siteAddress(origin),
      dryRun: true,
    });
    return { campaign, eligible: summary.eligible, skipped: Object.entries(summary.skipped) };
  } catch (error) {
    if (error instanceof OperatorError) return { campaign, problem: error.message };
    throw error;
  }
}

/** What the page says of the last bounce upload, from the numbers its address carries. */
function importedOf(query: URLSearchParams): MailPageView['imported'] {
  if (!query.has('imported')) return undefined;
  const n = (name: string) => Math.max(0, Math.trunc(Number(query.get(name)) || 0));
  return { reports: n('reports'), bounced: n('bounced'), complained: n('complained'), delayed: n('delayed'), unmatched: n('unmatched') };
}

/**
 * A survey's mail page for an operator, as the address asks for it (`status`, `kind`, `before`;
 * `preview` and `to`; `dry-run`); 'forbidden' below a manager; undefined for a survey they have
 * no role on, as for one that does not exist.
 */
export async function mailPage(visit: ConsoleVisit, slug: string, url: URL): Promise<MailPageView | 'forbidden' | undefined> {
  const found = surveyOfOperator(visit.operator, slug);
  if (!found) return undefined;
  const { survey } = found;
  if (!may(visit.operator, 'send-invitations', survey.slug)) return 'forbidden';
  const { db } = await database();
  const projectId = survey.config.project_id;
  const query = url.searchParams;
  const pick = <T extends string>(name: string, among: readonly T[]) =>
    (among as readonly string[]).includes(query.get(name) ?? '') ? (query.get(name) as T) : '';
  const filter = { status: pick('status', STATUSES), kind: pick('kind', KINDS) };
  const place = placeOf(query);
  const previewCampaign = campaignOf(query.get('preview'));
  const dryCampaign = campaignOf(query.get('dry-run'));
  const previewTo = (query.get('to') ?? '').slice(0, 320);
  const [latest, page, totals, shown, dry] = await Promise.all([
    surveyRun(db, projectId),
    messagePage(db, projectId, filter, place),
    peopleTotals(db, projectId),
    previewCampaign ? preview(db, survey, previewCampaign, previewTo, url.origin) : undefined,
    dryCampaign ? dryRun(db, survey, dryCampaign, url.origin) : undefined,
  ]);
  const path = mailPath(survey.slug);
  const filterQuery = new URLSearchParams(Object.entries(filter).filter(([, value]) => value));
  const last = page.rows.at(-1);
  const address = (before?: string) => {
    const at = new URLSearchParams(filterQuery);
    if (before) at.set('before', before);
    const text = at.toString();
    return `${path}${text ? `?${text}` : ''}#deliveries`;
  };
  const messages: MailMessageView[] = page.rows.map((row) => ({
    messageId: row.message_id,
    recipient: row.recipient,
    kind: row.kind,
    status: row.status,
    createdAt: row.created_at,
    sentAt: row.sent_at,
    detail: row.detail,
  }));
  const imported = importedOf(query);
  return {
    slug: survey.slug,
    title: survey.config.survey_title ?? survey.slug,
    path,
    ...(latest ? { run: await runView(db, latest) } : {}),
    roster: totals?.invited ?? 0,
    filter,
    statuses: STATUSES,
    kinds: KINDS,
    messages,
    ...(page.more && last ? { older: address(`${last.created_at} ${last.message_id}`) } : {}),
    ...(place ? { newest: address() } : {}),
    ...(shown ? { preview: shown } : {}),
    previewTo,
    ...(dry ? { dryRun: dry } : {}),
    ...(imported ? { imported } : {}),
    closed: isExpired(survey.config),
    rate: RATE_DEFAULT,
    rateMax: RATE_MAX,
    uploadLimit: UPLOAD_LIMIT,
  };
}
