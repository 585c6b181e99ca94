import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, saveScreenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  t = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

it('headless Chromium reaches the server on 127.0.0.1', async () => {
  const page = await browser.newPage();
  await page.goto(`${t.url}/healthz`);
  expect(await page.textContent('body')).toContain('ok');
  await saveScreenshot(page, 'browser-smoke');
});
