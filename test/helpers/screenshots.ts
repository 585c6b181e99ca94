import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * Screenshots of one screen every way a reader meets it: desktop (1280) and phone (390) widths,
 * light and dark. Every e2e file that shows a screen takes them the same way, so they compare.
 */

/** How to take them. */
export interface EveryWayOptions {
  /** The whole page (default) or only the viewport. */
  fullPage?: boolean;
  /** A scrolling part (a dialog): shot at its top, and again at its end (`-end`) when it scrolls. */
  scroller?: Locator;
  /** Blurs the focused control first, so the pictures show the screen at rest, without a focus ring. */
  atRest?: boolean;
  /** Runs at each size before the shots (e.g. brings a part into view). */
  prepare?(width: number): Promise<void>;
}

const SIZES = [
  [1280, 800],
  [390, 844],
] as const;

/** Saves `<base>-<width>-<scheme>.png` (and `-end` shots of a scroller), then leaves the page 1280 wide and light. */
export async function screenshotEveryWay(page: Page, base: string, options: EveryWayOptions = {}): Promise<void> {
  await mkdir(dirname(base), { recursive: true });
  if (options.atRest) await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  // A scroller named but not on the screen (a dialog not open) is no scroller.
  const scroller = options.scroller && (await options.scroller.count()) > 0 ? options.scroller : undefined;
  const scrollTo = (end: boolean) =>
    scroller
      ? scroller.evaluate((el, toEnd) => {
          el.scrollTop = toEnd ? el.scrollHeight : 0;
          return el.scrollHeight > el.clientHeight;
        }, end)
      : Promise.resolve(false);
  const fullPage = options.fullPage ?? true;
  for (const [width, height] of SIZES) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      await options.prepare?.(width);
      await page.waitForTimeout(300); // the theme's colour transitions
      await scrollTo(false);
      await page.screenshot({ path: `${base}-${width}-${scheme}.png`, fullPage });
      if (await scrollTo(true)) await page.screenshot({ path: `${base}-${width}-${scheme}-end.png`, fullPage });
      await scrollTo(false);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}
