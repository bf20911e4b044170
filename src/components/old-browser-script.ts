import { createHash } from 'node:crypto';

/**
 * The survey page's one inline classic script (src/ballot/SurveyHome.astro): it runs in any
 * browser, however old, and shows the old-browser state where modules and FormData, which the
 * ballot needs, are missing. Build-time only.
 */
export const OLD_BROWSER_SCRIPT =
  "(function () { var root = document.getElementById('survey-root'); if (typeof window.FormData === 'undefined' || document.documentMode) root.setAttribute('data-link-state', 'old-browser'); })();";

/** Its CSP hash: the page's policy allows exactly this inline script (src/layouts/SurveyLayout.astro). */
export const OLD_BROWSER_SCRIPT_HASH = `sha256-${createHash('sha256').update(OLD_BROWSER_SCRIPT).digest('base64')}` as const;
