import { createHash } from 'node:crypto';

/** Escapes text for HTML: the five characters that could open markup or end an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * True when a browser navigated here (a form sent without JavaScript, a link followed) or the
 * client asks for HTML first, rather than a page's script fetching JSON: such a request is
 * answered a page, not JSON.
 */
export function wantsPage(request: Request): boolean {
  if (request.headers.get('sec-fetch-mode') === 'navigate') return true;
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('text/html') && !accept.startsWith('application/json');
}

const STYLE = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2933;background:#f5f7fa}
header{background:#0b3d91;color:#fff;padding:1rem}header h1{margin:0;font-size:1.25rem}
main{max-width:40rem;margin:1.5rem auto;padding:1.5rem;background:#fff;border-radius:8px}
h2{margin-top:0;color:#b42318}li{margin:.25rem 0}.button{display:inline-block;padding:.6rem 1.2rem;background:#0b3d91;color:#fff;border-radius:6px;text-decoration:none}
button.button{border:0;font:inherit;cursor:pointer;min-height:44px}.button:focus-visible{outline:3px solid #f5a623;outline-offset:2px}h2.calm{color:#1f2933}
label{display:block;font-weight:600;margin:1rem 0 .25rem}input{font:inherit;padding:.5rem;border:1px solid #52606d;border-radius:4px;width:100%;max-width:16rem;box-sizing:border-box}
button{font:inherit;margin-top:1rem;padding:.6rem 1.2rem;background:#0b3d91;color:#fff;border:0;border-radius:6px;cursor:pointer}form{margin:0 0 1rem}`;

/** The page's policy: nothing loads; only its own stylesheet applies; a form posts only to the API itself, when the page has one. */
const pagePolicy = (form: boolean) =>
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action ${form ? "'self'" : "'none'"}`;

/** What a plain page says: texts are escaped here; `html` is markup the caller built from escaped parts. */
export interface PlainPage {
  status: number;
  /** The survey's title, in the page's header. */
  site: string;
  title: string;
  text: string;
  html?: string;
  headers?: HeadersInit;
  /** The page holds a form that posts back to the API (the unsubscribe confirmation). */
  form?: boolean;
  /** The title says no problem (drawn in the text's colour, not the problems' red). */
  calm?: boolean;
  /** The page's language, for `<html lang>`; English unless said. */
  lang?: string;
}

/**
 * A page the survey API answers a browser with when no script of the site runs (a ballot or a
 * receipt check sent without JavaScript): one small inline stylesheet, nothing to load, never cached.
 */
export function plainPage({ status, site, title, text, html = '', headers, form = false, calm = false, lang = 'en' }: PlainPage): Response {
  const body = `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)} · ${escapeHtml(site)}</title><style>${STYLE}</style></head><body><header><h1>${escapeHtml(site)}</h1></header><main><h2${calm ? ' class="calm"' : ''}>${escapeHtml(title)}</h2><p>${escapeHtml(text)}</p>${html}</main></body></html>`;
  const all = new Headers(headers);
  all.set('Content-Type', 'text/html; charset=utf-8');
  all.set('Content-Security-Policy', pagePolicy(form));
  all.set('Cache-Control', 'no-store');
  return new Response(body, { status, headers: all });
}
