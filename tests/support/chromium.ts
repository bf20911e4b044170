/** Debian's Chromium, which every browser test and bench drives (Playwright's own download does not work here). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags Chromium runs with on these machines: no sandbox as root, no GPU, and none of its own network traffic, which the closed network refuses. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** No host but this machine resolves: a third-party script a test does not intercept fails at once instead of leaving the page. */
export const LOCAL_HOSTS_ONLY = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

/**
 * The Chromium features Playwright turns off as it launches (its chromiumSwitches.ts). Chromium
 * heeds only the last --disable-features on its command line, so a list of our own must repeat
 * them: tests/e2e/chromium.spec.ts fails when Playwright's list holds one that this one lacks.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's popup, which Chromium draws as two pages of its own (chrome://omnibox-popup)
 * in every window, so for every browser context a test opens. No test types into an address bar;
 * with the popup off, the end-to-end tests take about a third less CPU time.
 */
const OMNIBOX_POPUP_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The spare renderer Chromium starts beside every new page, for a navigation to another site
 * that a test's fresh context never makes: a renderer process started and ended for nothing in
 * every test (two renderers a page instead of one).
 */
const SPARE_RENDERER_FEATURES = ['SpareRendererForSitePerProcess'];

/** The flags Chromium runs with when Playwright drives it: CHROMIUM_FLAGS, and the features above turned off. */
export const PLAYWRIGHT_CHROMIUM_FLAGS = [
  ...CHROMIUM_FLAGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES, ...SPARE_RENDERER_FEATURES].join(',')}`,
];
