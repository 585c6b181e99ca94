import { expect, it } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { editedPage, largePage } from '../helpers/large-markdown';
import { seedPages, updatePages } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { openSpaceThroughUi, syncState } from '../helpers/web-app';

/**
 * The rendered diff of a long page is computed in a Web Worker
 * (renderer/src/diff/rendered-worker.ts): opening the history diff of a
 * 50,000-character page leaves the main thread free (no long task over 300 ms,
 * timers keep firing), the diff appears, and it is the very HTML the main
 * thread computes where there is no Worker. A diff nobody waits for anymore
 * (its dialog closed) is stopped, so the next one does not wait behind it.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** A space with one long page (`chars` characters) in two versions; returns the first version's revision. */
async function longPageHistory(title: string, chars = 50_000) {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: `${title} Org` })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: `${title} space` })).data.id;
  // The later version rewords a word in every other paragraph, drops some paragraphs and adds some.
  // Character references too: the worker decodes them without a DOM (worker-dom.ts), as the page would.
  const entities = (word: string) => `\nNamed references: &copy; &eacute;t&eacute; &notit; &amp;; ${word}.\n`;
  const first = largePage(7, chars) + entities('before');
  const pageId = (await seedPages(t, spaceId, [{ ref: 'page', title, markdown: first }])).page!;
  const firstRevision = (await t.client.spaces.getSpaceById(spaceId)).data.revision;
  const later = editedPage(7, chars, [], { editEvery: 2 }) + entities('after');
  await updatePages(t, spaceId, [{ page: pageId, markdown: later }]);
  return { spaceId, firstRevision };
}

/** Opens the space and its history panel, where `revision` is listed. */
async function openHistory(page: Page, spaceId: string, revision: string): Promise<void> {
  await openSpaceThroughUi(page, e2e.server.url, e2e.server.adminToken, spaceId);
  await eventually(async () => (await syncState(page)) === 'online', 'sync');
  await page.getByTestId('history-toggle').click();
  await page.locator(`[data-testid=history-item][data-revision="${revision}"]`).waitFor();
}

const compareButton = (page: Page, revision: string) =>
  page.locator(`[data-testid=history-item][data-revision="${revision}"]`).getByTestId('history-compare');

/** Starts watching the main thread: long tasks (PerformanceObserver) and the longest gap between 20 ms timer ticks. */
function watchMainThread(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __gap: { last: number; max: number } };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    w.__gap = { last: performance.now(), max: 0 };
    setInterval(() => {
      const now = performance.now();
      w.__gap.max = Math.max(w.__gap.max, now - w.__gap.last);
      w.__gap.last = now;
    }, 20);
  });
}

function mainThreadReport(page: Page): Promise<{ longTasks: number[]; maxGap: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __gap: { max: number } };
    return { longTasks: w.__longTasks.map(Math.round), maxGap: Math.round(w.__gap.max) };
  });
}

it('renders a 50k-character page diff off the main thread, identical to the main thread’s', async () => {
  const { spaceId, firstRevision } = await longPageHistory('Long guide');

  // With a Worker (every browser the app supports).
  const page = await e2e.newPage(DESKTOP);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await openHistory(page, spaceId, firstRevision);
  await watchMainThread(page);
  await compareButton(page, firstRevision).click();
  const words = page.getByTestId('diff-dialog').getByTestId('diff-words');
  await words.waitFor({ timeout: 30_000 });
  // Let a last frame's timer tick land, then read what the main thread went through.
  await page.waitForTimeout(100);
  const report = await mainThreadReport(page);
  console.log(
    `diff in a worker: long tasks ${JSON.stringify(report.longTasks)} ms, longest timer gap ${report.maxGap} ms`,
  );
  expect(report.longTasks.filter((ms) => ms > 300)).toEqual([]);
  expect(report.maxGap).toBeLessThan(300);
  expect(workers.some((url) => /rendered-worker/.test(url))).toBe(true);
  expect(await words.locator('ins[data-diff=added]').count()).toBeGreaterThan(10);
  expect(await words.locator('del[data-diff=removed]').count()).toBeGreaterThan(10);
  expect(await page.getByTestId('diff-summary').textContent()).toMatch(/^\d+ words? added, \d+ words? removed$/);
  expect(await words.locator('p', { hasText: 'Named references' }).textContent()).toContain('© été &notit; &;');
  const inWorker = await words.innerHTML();
  const summary = await page.getByTestId('diff-summary').textContent();

  // Without a Worker the same diff is computed on the main thread: the same HTML.
  const context = await e2e.newContext(DESKTOP);
  await context.addInitScript(() => {
    delete (window as { Worker?: unknown }).Worker;
  });
  const plain = await context.newPage();
  const plainWorkers: string[] = [];
  plain.on('worker', (worker) => plainWorkers.push(worker.url()));
  await openHistory(plain, spaceId, firstRevision);
  await watchMainThread(plain);
  await compareButton(plain, firstRevision).click();
  const plainWords = plain.getByTestId('diff-dialog').getByTestId('diff-words');
  await plainWords.waitFor({ timeout: 30_000 });
  const plainReport = await mainThreadReport(plain);
  console.log(`diff on the main thread: long tasks ${JSON.stringify(plainReport.longTasks)} ms`);
  expect(plainWorkers.filter((url) => /rendered-worker/.test(url))).toEqual([]);
  expect(await plainWords.innerHTML()).toBe(inWorker);
  expect(await plain.getByTestId('diff-summary').textContent()).toBe(summary);
}, 120_000);

it('stops a diff whose dialog was closed, so the next diff does not wait behind it', async () => {
  // Three times longer: its diff surely still computes when the dialog closes.
  const { spaceId, firstRevision } = await longPageHistory('Stopped guide', 150_000);
  const page = await e2e.newPage(DESKTOP);
  const started: string[] = [];
  const closed: string[] = [];
  page.on('worker', (worker) => {
    if (!/rendered-worker/.test(worker.url())) return;
    const n = String(started.length);
    started.push(n);
    worker.on('close', () => closed.push(n));
  });
  await openHistory(page, spaceId, firstRevision);
  await compareButton(page, firstRevision).click();
  await expect.poll(() => started.length, { timeout: 15_000 }).toBe(1);
  // Closed while the worker computes: nobody will see that diff.
  await page.getByTestId('diff-close').click();
  await expect.poll(() => page.getByTestId('diff-dialog').count()).toBe(0);
  // The next diff stops it (its worker is terminated) and gets a fresh worker.
  await compareButton(page, firstRevision).click();
  await page.getByTestId('diff-dialog').getByTestId('diff-words').waitFor({ timeout: 30_000 });
  // The stopped worker's close is reported by the browser on its own, not in step with the new diff's DOM.
  await expect.poll(() => closed).toContain('0');
  expect(started.length).toBe(2);
  // The finished diff's worker stays for the next one.
  await page.getByTestId('diff-close').click();
  await compareButton(page, firstRevision).click();
  await page.getByTestId('diff-dialog').getByTestId('diff-words').waitFor({ timeout: 30_000 });
  expect(started.length).toBe(2);
}, 120_000);
