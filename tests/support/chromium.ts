// The one way tests start a browser: Debian's Chromium (Playwright cannot download its own here), headless, with the
// flags that keep it off the network this machine does not have (every background connection would be refused).
import { chromium, type Browser } from '@playwright/test';

export const CHROMIUM = '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
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
