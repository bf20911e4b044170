import { database } from '../db/database.ts';
import { findSurvey } from '../surveys.ts';
import { json, refuse } from '../http.ts';
import { normalizeReceipt, receiptAnswerText } from '../../survey/published/receipt-code.ts';
import type { ReceiptCheck } from '../../survey/api/api-replies.ts';
import { requestTime } from '../request-hooks.ts';
import { rateLimited } from '../rate-limit.ts';
import { escapeHtml, plainPage, wantsPage } from '../html-page.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { BallotRow } from '../db/tables/ballots.table.ts';
import { publishedStanding } from './published-ledger.ts';
import { m } from '../../i18n/messages.ts';
import { requestLanguage } from '../language.ts';
import { localizeSurvey } from '../../survey/config/translations.ts';

/**
 * Answers a voter's receipt check (`GET /api/survey/receipt/{projectId}/{code}`, or `?code=`
 * from the check form): whether and when a ballot with this code was received, nothing of its
 * answers or its voter; once results are published, whether it was counted and, for each vote
 * not counted, why (to the code's holder only). JSON, or a plain page for a browser that navigated here. Rate-limited
 * per client address in a bucket of its own, so checking never eats into posting a ballot.
 */
export async function checkReceipt(
  request: Request,
  connection: string | undefined,
  projectId: string | undefined,
  typed: string | undefined,
): Promise<Response> {
  const now = requestTime(request);
  const asPage = wantsPage(request);
  const survey = findSurvey(projectId ?? '');
  // In the language of the check form's page (its `lang` field), as the ballot's own pages are.
  const page = (status: number, sentence: string, headers?: HeadersInit) =>
    plainPage({
      status,
      site: (survey && localizeSurvey(survey.config, requestLanguage()).survey_title) ?? m.page_survey(),
      title: m.page_title_receipt(),
      text: sentence,
      html: `<p>${escapeHtml(m.receipt_page_back())}</p>`,
      lang: requestLanguage(),
      headers,
    });
  const { db } = await database();
  const limited = await rateLimited('receipt', request, connection, now);
  if (limited) return asPage ? page(429, receiptAnswerText('too-many', ''), { 'Retry-After': limited.headers.get('Retry-After') ?? '60' }) : limited;
  if (!survey) return refuse(404, 'unknown_survey', m.api_no_survey());
  const code = normalizeReceipt(typed ?? '');
  if (!code) {
    return asPage
      ? page(400, receiptAnswerText('bad-code', ''))
      : refuse(400, 'bad_receipt', m.receipt_bad_code(), [{ path: 'code', message: m.api_not_a_receipt() }]);
  }
  const ballot = await ballotByReceipt(db, survey.config.project_id, code);
  const standing = ballot ? publishedStanding(survey.dir, code) : undefined;
  const answer: ReceiptCheck = ballot
    ? { received: true, received_at: ballot.created_at, ...(ballot.replaced_at ? { replaced_at: ballot.replaced_at } : {}), ...standing }
    : { received: false };
  return asPage ? page(200, receiptAnswerText(answer, code)) : json(200, answer);
}

/** The ballot of a survey that carries this receipt code (stored form), if any. */
export async function ballotByReceipt(db: Kysely<Database>, projectId: string, code: string): Promise<BallotRow | undefined> {
  return db.selectFrom('ballots').selectAll().where('project_id', '=', projectId).where('receipt', '=', code).executeTakeFirst();
}
