import { fileURLToPath } from 'node:url';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where end-to-end tests save screenshots (gitignored; CI keeps it as an artifact). */
export const ARTIFACTS_DIR = fileURLToPath(new URL('../../test-artifacts', import.meta.url));

/** Debian's chromium; the flags keep it off the (closed) network and out of the GPU. */
export const CHROMIUM_PATH = process.env.FOLIO_CHROMIUM ?? '/usr/bin/chromium';

/** Launches headless Debian Chromium the way every browser test here does. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  });
}

/** Saves a full-page screenshot as test-artifacts/<name>.png and returns its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name.replace(/[^a-z0-9_-]+/gi, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
