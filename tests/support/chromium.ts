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
