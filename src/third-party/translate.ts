import { GOOGLE_TRANSLATE, TRANSLATE_DELAY_MS } from '../survey/config/third-parties.ts';
import { loadScript, loadTime } from './load-script.ts';

declare global {
  interface Window {
    google?: { translate?: { TranslateElement: new (options: Record<string, unknown>, elementId: string) => unknown } };
    peervoteTranslateReady?: () => void;
  }
}

/** The element in the welcome block that holds the widget (src/components/Welcome.astro). */
const TRANSLATE_ELEMENT_ID = 'google_translate_element';

/**
 * Loads Google's website translator and starts its widget in the welcome block
 * TRANSLATE_DELAY_MS after the page has loaded (docs/spec.md, "The survey page"): never sooner, and later
 * only if the script itself arrives later.
 */
export function startTranslate(): void {
  if (!document.getElementById(TRANSLATE_ELEMENT_ID)) return;
  const startAt = loadTime() + TRANSLATE_DELAY_MS;
  const start = () => {
    // Timers may fire a fraction of a millisecond early: wait out the rest.
    if (performance.now() < startAt) return void setTimeout(start, Math.ceil(startAt - performance.now()));
    const TranslateElement = window.google?.translate?.TranslateElement;
    if (TranslateElement) new TranslateElement({ pageLanguage: document.documentElement.lang || 'en', autoDisplay: false }, TRANSLATE_ELEMENT_ID);
  };
  window.peervoteTranslateReady = start;
  loadScript(GOOGLE_TRANSLATE.script('peervoteTranslateReady'));
}
