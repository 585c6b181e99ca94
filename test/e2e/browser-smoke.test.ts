import { expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';

const e2e = useChromium();

it('headless Chromium reaches the server on 127.0.0.1', async () => {
  const page = await e2e.newPage();
  await page.goto(`${e2e.server.url}/healthz`);
  expect(await page.textContent('body')).toContain('ok');
  await e2e.screenshot(page, 'browser-smoke');
});
