import { beforeLeaving } from './leaving.ts';

/**
 * The language switch's links keep what the voter has on the page: the address's secret (a
 * personal link), its query, and the field the voter was in, named in the new address's hash and
 * focused there. The answers themselves go across in the device's draft, which the ballot saves
 * before the link is followed (src/components/leaving.ts, src/ballot/drafts/draft.ts).
 */
export function followLanguageSwitch(): void {
  let lastField = '';
  document.addEventListener('focusin', (event) => {
    const target = event.target;
    if (target instanceof HTMLElement && target.id && target.closest('form') && !target.closest('[data-language-switch]')) lastField = target.id;
  });
  const here = location.pathname;
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-language-switch]')) {
    link.addEventListener('click', (event) => {
      link.href = `${swapLanguage(here, link.pathname, link.dataset.languageSwitch!)}${location.search}${lastField ? `#${encodeURIComponent(lastField)}` : ''}`;
      // A plain click waits for the draft to be saved (a new tab or window gets it as it is saved anyway).
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      void beforeLeaving().then(() => location.assign(link.href));
    });
  }
  // Arrived by a switch: back to the field the voter was in.
  const id = decodeURIComponent(location.hash.slice(1));
  const field = id ? document.getElementById(id) : null;
  if (field?.matches('input, select, textarea, button')) field.focus();
}

/**
 * The current address in the language of a switch's link: the link's part up to the survey's slug
 * (its language prefix, or none) in place of the current one, the rest (a secret, a page) kept.
 */
function swapLanguage(current: string, target: string, slug: string): string {
  const at = (path: string) => (path.indexOf(`/${slug}/`) >= 0 ? path.indexOf(`/${slug}/`) : path.indexOf(`/${slug}`));
  return `${target.slice(0, at(target))}${current.slice(at(current))}`;
}
