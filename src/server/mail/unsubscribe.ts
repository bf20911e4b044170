import { database } from '../db/database.ts';
import { appendAudit } from '../db/audit.repository.ts';
import { escapeHtml, plainPage, wantsPage } from '../html-page.ts';
import { json, refuse } from '../http.ts';
import { readLimited } from '../intake/multipart.ts';
import { findSurvey } from '../surveys.ts';
import { recipientByToken, unsubscribe } from './mail.repository.ts';
import { baseLocale, m } from '../../i18n/messages.ts';
import { requestLanguage } from '../language.ts';
import { localizeSurvey } from '../../survey/config/translations.ts';

/** A token as `send` makes them: 32 bytes of HMAC in base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What RFC 8058 has a mail provider post: the one-click body. */
const ONE_CLICK = 'List-Unsubscribe=One-Click';

const siteOf = (projectId: string) => {
  const survey = findSurvey(projectId);
  return (survey && localizeSurvey(survey.config, requestLanguage()).survey_title) ?? 'Peervote';
};

function unknownToken(request: Request): Response {
  if (!wantsPage(request)) return refuse(404, 'unknown_token', 'This unsubscribe link is not known.');
  return plainPage({
    status: 404,
    site: 'Peervote',
    title: m.unsubscribe_unknown_title(),
    text: m.unsubscribe_unknown_text(),
    lang: requestLanguage(),
  });
}

/**
 * `GET /api/unsubscribe/{token}`: a page asking the person to confirm with a button, never an
 * unsubscribe itself, since mail scanners follow every link. 404 for a token no one holds.
 */
export async function unsubscribePage(request: Request, token: string): Promise<Response> {
  const recipient = TOKEN.test(token) ? await recipientByToken((await database()).db, token) : undefined;
  if (!recipient) return unknownToken(request);
  const site = siteOf(recipient.project_id);
  if (recipient.unsubscribed_at) return unsubscribedPage(site);
  return plainPage({
    status: 200,
    site,
    calm: true,
    form: true,
    title: m.unsubscribe_ask_title(),
    text: m.unsubscribe_ask_text({ site }),
    lang: requestLanguage(),
    // The language goes on with the form, so that the page after it is in it too.
    html: `<form method="post" action="/api/unsubscribe/${escapeHtml(token)}${requestLanguage() === baseLocale ? '' : `?lang=${requestLanguage()}`}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button class="button" type="submit">${escapeHtml(m.unsubscribe_button())}</button></form>`,
  });
}

/** The page that says it is done, after the button or on a second visit. */
function unsubscribedPage(site: string): Response {
  return plainPage({
    status: 200,
    site,
    title: m.unsubscribe_done_title(),
    calm: true,
    text: m.unsubscribe_done_text({ site }),
    lang: requestLanguage(),
  });
}

/**
 * `POST /api/unsubscribe/{token}` with `List-Unsubscribe=One-Click` (RFC 8058): records the
 * unsubscribe and answers 200, with no Origin needed (mail providers send none). A repeat is 200
 * too; an unknown token 404 and a body without the one-click field 400, both changing nothing.
 */
export async function unsubscribeNow(request: Request, token: string): Promise<Response> {
  const body = await readLimited(request, 4096);
  if (body === 'too-large') return refuse(413, 'body_too_large', 'An unsubscribe request is one short field.');
  const text = new TextDecoder().decode(body);
  const { db } = await database();
  const recipient = TOKEN.test(token) ? await recipientByToken(db, token) : undefined;
  if (!recipient) return unknownToken(request);
  // Form-encoded (RFC 8058's example) or multipart: the field's name and value are the same text in both.
  if (!/List-Unsubscribe=One-Click|name="List-Unsubscribe"\r?\n\r?\nOne-Click/.test(text)) {
    return refuse(400, 'bad_unsubscribe', `An unsubscribe request carries the body ${ONE_CLICK}.`);
  }
  const at = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    const before = recipient.unsubscribed_at;
    await unsubscribe(trx, token, at);
    if (!before)
      await appendAudit(trx, {
        projectId: recipient.project_id,
        actor: 'recipient',
        action: 'unsubscribe',
        via: 'mail link',
        details: { via: wantsPage(request) ? 'page' : 'one-click' },
      });
  });
  const site = siteOf(recipient.project_id);
  if (!wantsPage(request)) return json(200, { unsubscribed: true });
  return unsubscribedPage(site);
}
