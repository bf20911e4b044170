/** Browsers by a mark of their User-Agent, the more particular first (Edge and Opera say Chrome too, Chrome says Safari). */
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/HeadlessChrome\//, 'Headless Chrome'],
  [/Chromium\//, 'Chromium'],
  [/Chrome\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** A browser and system in a few words ("Chrome on Linux"), for an operator's list of sessions; never the whole User-Agent. */
export function agentWords(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.find(([mark]) => mark.test(userAgent))?.[1];
  const system = SYSTEMS.find(([mark]) => mark.test(userAgent))?.[1];
  if (!browser && !system) return 'Another browser';
  return [browser ?? 'A browser', system].filter(Boolean).join(' on ');
}
