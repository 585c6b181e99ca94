import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

/**
 * axe-core accessibility scans for the e2e files. The page's own CSP forbids injected scripts,
 * so contexts that scan are opened with `bypassCSP`.
 */

const AXE = fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url));

/** One axe-core finding. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Runs axe-core over `context` (a selector; the whole document by default) once the page is
 * still: colours scanned halfway through a CSS transition (a toggle just pressed, a theme just
 * switched) are neither the old nor the new state, and their contrast means nothing.
 */
export async function axeScan(page: Page, context?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  // Finite ones only: a blinking caret animates forever.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  return page.evaluate(async (ctx) => {
    const axe = (
      window as unknown as { axe: { run(ctx: unknown, o: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    return (await axe.run(ctx ?? document, { resultTypes: ['violations'] })).violations;
  }, context);
}

/** The serious and critical findings, one line each (`impact id at targets`). */
export function seriousFindings(violations: AxeViolation[]): string[] {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The serious findings of a scan in the light scheme and another in the dark one, each line
 * prefixed with `where` and the scheme; the page is left light.
 */
export async function axeBothSchemes(page: Page, where: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300); // the theme's colour transitions
    found.push(...seriousFindings(await axeScan(page)).map((line) => `${where} ${scheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}
