/** Debian's Chromium as the browser tests drive it (playwright-core; no browser is ever downloaded). */
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = process.env.CONFORMANCE_CHROMIUM ?? '/usr/bin/chromium';

/** Launches Chromium headless for a test. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // The machine has no network: without these Chromium keeps trying to reach Google's services.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
