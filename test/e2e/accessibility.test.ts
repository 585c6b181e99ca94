import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, seriousFindings, type AxeViolation } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';
import { pickSpaceThroughUi, signInThroughUi } from '../helpers/web-app';

/**
 * An axe-core scan of the main screens — sign-in, space picker, a workspace
 * with a page open, settings — in the light and the dark theme: no serious or
 * critical violation (contrast, names of controls, landmarks, ARIA misuse...).
 * Lesser findings are printed, not failed. Each screen is also saved at
 * desktop (1280) and phone (390) width for a look.
 */
const e2e = useChromium({ app: true });
let spaceId: string;

// The page's title is "Getting started" (REST reads a leading "# Title" as the title, so the body starts after it).
const PAGE_MARKDOWN = `Folio keeps your docs **local-first**: edit offline, *merge* later. Read the [configuration](https://example.com) notes.

> Tip: every page is markdown, so \`git diff\` reads it.

| Setting | Default |
| --- | --- |
| port | 8080 |
| data | ./data |

\`\`\`ts
const answer: number = 42; // the answer
\`\`\`

- [x] Install
- [ ] Configure
`;

beforeAll(async () => {
  const orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Acme Docs' })).data.id;
  spaceId = (await e2e.server.client.orgs.createSpace(orgId, { title: 'Product handbook' })).data.id;
  await e2e.server.client.orgs.createSpace(orgId, { title: 'API reference' });
  await seedPages(e2e.server, spaceId, [
    { title: 'Getting started', markdown: PAGE_MARKDOWN },
    { title: 'Configuration', markdown: 'Set `FOLIO_PORT`.\n' },
  ]);
});

/** Runs axe-core on the page as it is now; returns the violations, printing each one. */
async function scan(page: Page, screen: string): Promise<AxeViolation[]> {
  const violations = await axeScan(page);
  for (const v of violations)
    console.log(
      `[axe ${screen}] ${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes.map((n) => `    ${n.target.join(' ')} — ${(n.failureSummary ?? '').split('\n').join(' ')}`).join('\n'),
    );
  return violations;
}

const serious = seriousFindings;

/**
 * Walks the keyboard (Tab) through the controls inside `scope`, starting at `first`, and returns the
 * ones that show no focus indicator (neither an outline nor a box-shadow ring) while focused.
 */
async function unfocusableLooking(page: Page, scope: string, first: string): Promise<string[]> {
  await page.locator(first).focus();
  await page.keyboard.press('Shift+Tab');
  const missing: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    const state = await page.evaluate((scopeSelector) => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || !el.closest(scopeSelector)) return { inside: false, ok: true, name: '' };
      const s = getComputedStyle(el);
      const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
      const ring = s.boxShadow !== 'none' && s.boxShadow !== '';
      const name = el.dataset.testid ?? el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName;
      return { inside: true, ok: outline || ring, name };
    }, scope);
    if (!state.inside || seen.has(state.name)) break; // left the scope, or Tab had nowhere further to go
    seen.add(state.name);
    if (!state.ok) missing.push(state.name);
  }
  return missing;
}

/** Screenshots the screen at desktop and phone widths, then returns to desktop width. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, width, height] of [
    ['1280', 1280, 800],
    ['390', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(50); // one layout after the resize
    await e2e.screenshot(page, `a11y-${name}-${label}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.each(['light', 'dark'] as const)('the %s theme', (theme) => {
  it('has no serious or critical axe violation on sign-in, picker, workspace and settings', async () => {
    // bypassCSP: axe is injected as an inline script, which the app's own policy rightly forbids.
    const page = await e2e.newPage({ colorScheme: theme, viewport: { width: 1280, height: 800 }, bypassCSP: true });
    const found: Record<string, string[]> = {};

    await page.goto(`${e2e.server.url}/app/`);
    await page.getByTestId('method-email').waitFor();
    found['sign-in'] = serious(await scan(page, `sign-in ${theme}`));
    expect(await unfocusableLooking(page, 'main', '[data-testid=method-email]')).toEqual([]);
    await shoot(page, `sign-in-${theme}`);

    await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
    await page.locator('[data-testid=space]').first().waitFor();
    found.picker = serious(await scan(page, `picker ${theme}`));
    await shoot(page, `picker-${theme}`);

    await pickSpaceThroughUi(page, spaceId);
    await page.getByTestId('page-title').filter({ hasText: 'Getting started' }).waitFor();
    // A comment with a reply, so the comments panel is scanned with content, not only its empty state.
    await page.getByTestId('comment-input').fill(`Should we mention the port here? (${theme})`);
    await page.getByTestId('comment-post').click();
    const thread = page.getByTestId('comment').filter({ hasText: `(${theme})` });
    await thread.waitFor();
    await thread.getByTestId('reply-input').fill('Yes, and the data folder.');
    await thread.getByTestId('reply-input').press('Enter');
    await thread.getByTestId('reply').waitFor();
    found.workspace = serious(await scan(page, `workspace ${theme}`));
    expect(await unfocusableLooking(page, '.topbar', '[data-testid=to-picker]')).toEqual([]);
    // A dialog (the new-page prompt): named, focus inside, same checks.
    await page.getByTestId('new-page').click();
    await page.getByTestId('prompt-dialog').waitFor();
    found.dialog = serious(await scan(page, `dialog ${theme}`));
    await e2e.screenshot(page, `a11y-dialog-${theme}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('prompt-dialog').waitFor({ state: 'detached' });

    await page.getByTestId('open-settings').focus();
    await e2e.screenshot(page, `a11y-focus-ring-${theme}`);
    await shoot(page, `workspace-${theme}`);

    await page.getByTestId('open-settings').first().click();
    await page.getByTestId('settings').waitFor();
    found.settings = serious(await scan(page, `settings ${theme}`));
    await shoot(page, `settings-${theme}`);

    expect(found).toEqual({ 'sign-in': [], picker: [], workspace: [], dialog: [], settings: [] });
  });
});
