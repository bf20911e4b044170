import type { CDPSession, Page } from '@playwright/test';
import { CHROMIUM_PATH, PLAYWRIGHT_CHROMIUM_FLAGS } from '../support/chromium.ts';

// A real passkey for the console's end-to-end tests: Chromium's virtual authenticator, through
// the DevTools protocol, and a browser that resolves localhost (a passkey cannot belong to an IP
// address, so the console lives at localhost; the suite's browser resolves 127.0.0.1 alone).

/** The launch options of a console test: localhost resolves, as 127.0.0.1 does. */
export const CONSOLE_LAUNCH = {
  executablePath: CHROMIUM_PATH,
  args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost', ...PLAYWRIGHT_CHROMIUM_FLAGS],
};

/** Gives the page a platform authenticator that keeps discoverable passkeys and verifies its user, as a laptop with a fingerprint reader does. */
export async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return { cdp, id: await addAuthenticator(cdp) };
}

/** Adds such an authenticator to a page's WebAuthn session: its id. */
export async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return authenticatorId;
}
