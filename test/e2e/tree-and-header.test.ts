import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';
import { eventually } from '../helpers/wait';
import { openSpaceThroughUi } from '../helpers/web-app';

/**
 * The page tree (collapse remembered, WAI-ARIA keyboard navigation) and the
 * page header (icon, title, description, hide from site, slug with the old
 * path still resolving, breadcrumbs, and the actions menu: duplicate, move
 * to…, copy link, delete with undo) — driven through the web app in
 * Chromium, each result checked over REST.
 */

// Quiet period of 50 ms: REST content reads serve revisions, made after edits pause.
const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
let orgId: string;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Header Org' })).data.id;
});

/** The pages of a seeded space, by name. */
interface SeededIds {
  GUIDES: string;
  INSTALL: string;
  LINUX: string;
  FAQ: string;
}

/** A space with Guides > Install > Linux, and FAQ. */
async function seededSpace(title: string): Promise<{ spaceId: string; ids: SeededIds }> {
  const t = e2e.server;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title })).data.id;
  const ids = (await seedPages(t, spaceId, [
    { ref: 'GUIDES', title: 'Guides', markdown: 'All the guides.\n' },
    { ref: 'INSTALL', title: 'Install', parent: 'GUIDES', markdown: 'Run the installer.\n' },
    { ref: 'LINUX', title: 'Linux', parent: 'INSTALL', markdown: 'Use apt.\n' },
    { ref: 'FAQ', title: 'FAQ', markdown: 'Questions.\n' },
  ])) as unknown as SeededIds;
  return { spaceId, ids };
}

interface RestPage {
  id: string;
  title: string;
  path?: string;
  emoji?: string;
  description?: string;
  hidden?: boolean;
  markdown?: string;
  pages?: RestPage[];
}

/** GET /v1/spaces/{id}/content/<rest> as JSON, or the status when it failed. */
async function rest(spaceId: string, rest: string): Promise<RestPage | number> {
  const t = e2e.server;
  const res = await fetch(`${t.url}/v1/spaces/${spaceId}/content/${rest}`, {
    headers: { authorization: `Bearer ${t.adminToken}` },
  });
  return res.ok ? ((await res.json()) as RestPage) : res.status;
}

/** Every page of the current revision, flattened. */
async function restPages(spaceId: string): Promise<RestPage[]> {
  const revision = (await rest(spaceId, 'pages')) as unknown as { pages: RestPage[] };
  const out: RestPage[] = [];
  const walk = (pages: RestPage[]) => pages.forEach((p) => (out.push(p), walk(p.pages ?? [])));
  walk(revision.pages);
  return out;
}

function row(page: Page, pageId: string) {
  return page.locator(`[data-testid=tree-row][data-page-id="${pageId}"]`);
}

function focusedRow(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.pageId);
}

async function openPage(page: Page, pageId: string, title: string): Promise<void> {
  await row(page, pageId).click();
  await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(title);
}

/** Screenshots of the current screen: desktop and phone, light and dark. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    // Let the colour transitions (120 ms) finish, or the picture catches them halfway.
    await page.waitForTimeout(300);
    await page.setViewportSize({ width: 1280, height: 800 });
    await e2e.screenshot(page, `tree-header-${name}-desktop-${scheme}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await e2e.screenshot(page, `tree-header-${name}-phone-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe('page tree', () => {
  it('collapses and expands with chevrons and the keyboard; collapsed pages stay collapsed after a reload', async () => {
    const t = e2e.server;
    const { spaceId, ids } = await seededSpace('Tree space');
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await expect.poll(() => row(page, ids.LINUX).count()).toBe(1);

    // The filter's placeholder fits its box (it was cut off before).
    const fits = await page.getByTestId('page-filter').evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text: input.placeholder, width: ctx.measureText(input.placeholder).width, room };
    });
    expect(fits.text).toBe('Filter pages');
    expect(fits.width).toBeLessThan(fits.room);

    // The chevron collapses Guides: its sub-pages leave the tree.
    await expect.poll(() => row(page, ids.GUIDES).getAttribute('aria-expanded')).toBe('true');
    await row(page, ids.GUIDES).getByTestId('tree-toggle').click();
    await expect.poll(() => row(page, ids.INSTALL).count()).toBe(0);
    expect(await row(page, ids.GUIDES).getAttribute('aria-expanded')).toBe('false');
    expect(await row(page, ids.FAQ).getAttribute('aria-expanded')).toBeNull();
    await shoot(page, '1-collapsed');

    // Reloaded, the tree remembers (the open page, Guides, is not inside what was collapsed).
    await page.reload();
    await page.getByTestId('page-tree').waitFor();
    await expect.poll(() => row(page, ids.FAQ).count()).toBe(1);
    expect(await row(page, ids.INSTALL).count()).toBe(0);
    expect(await row(page, ids.GUIDES).getAttribute('aria-expanded')).toBe('false');

    // Keyboard (WAI-ARIA tree): → expands, → enters, ↓ moves, ← goes up then collapses, Enter opens.
    await row(page, ids.GUIDES).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => row(page, ids.GUIDES).getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => focusedRow(page)).toBe(ids.GUIDES);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedRow(page)).toBe(ids.INSTALL);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedRow(page)).toBe(ids.LINUX);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focusedRow(page)).toBe(ids.INSTALL);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => row(page, ids.LINUX).count()).toBe(0);
    expect(await row(page, ids.INSTALL).getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => focusedRow(page)).toBe(ids.INSTALL);
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedRow(page)).toBe(ids.FAQ);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('FAQ');
    await page.keyboard.press('Home');
    await expect.poll(() => focusedRow(page)).toBe(ids.GUIDES);
    // One row in the Tab order (roving tabindex), with the tree semantics set.
    expect(await page.locator('[data-testid=tree-row][tabindex="0"]').count()).toBe(1);
    expect(await row(page, ids.INSTALL).getAttribute('aria-level')).toBe('2');
    await e2e.screenshot(page, 'tree-header-2-keyboard');

    // Drag-and-drop still moves pages: FAQ dropped on the middle of Guides becomes its last sub-page.
    await row(page, ids.FAQ).dragTo(row(page, ids.GUIDES));
    await eventually(async () => {
      const p = await rest(spaceId, 'path/guides/faq');
      return typeof p === 'object' && p.id === ids.FAQ;
    }, 'FAQ under Guides over REST');
    // The tree redraws in the animation frame after the move, not with the server's revision.
    await expect.poll(() => row(page, ids.FAQ).getAttribute('aria-level')).toBe('2');
    // Its old top-level path still finds it.
    expect(await rest(spaceId, 'path/faq')).toMatchObject({ id: ids.FAQ, path: 'guides/faq' });
    await page.close();
  });
});

describe('page header', () => {
  it('sets the icon, title, description and "hide from site"; breadcrumbs open ancestors; REST shows it all', async () => {
    const t = e2e.server;
    const { spaceId, ids } = await seededSpace('Header space');
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await openPage(page, ids.LINUX, 'Linux');

    // Breadcrumbs: Guides › Install › Linux; a click opens the ancestor.
    const crumbs = page.getByTestId('breadcrumbs');
    await expect.poll(() => crumbs.getByTestId('breadcrumb').allTextContents()).toEqual(['Guides', 'Install']);
    await crumbs.getByTestId('breadcrumb').filter({ hasText: 'Install' }).click();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Install');
    expect(await crumbs.getByTestId('breadcrumb').allTextContents()).toEqual(['Guides']);

    // Icon from the picker: the tree shows it too.
    await page.getByTestId('page-emoji').click();
    await page.getByTestId('emoji-picker').waitFor();
    await shoot(page, '3-emoji-picker');
    await page.locator('[data-testid=emoji-option][data-emoji="🚀"]').click();
    await expect.poll(() => row(page, ids.INSTALL).locator('.tree-emoji').textContent()).toBe('🚀');
    expect(await page.getByTestId('emoji-picker').count()).toBe(0);

    // Description, title and visibility.
    await page.getByTestId('page-description').fill('Set it up on your machine');
    await page.getByTestId('page-description').press('Enter');
    const title = page.getByTestId('page-title');
    await title.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Installation');
    await page.keyboard.press('Enter');
    await expect.poll(() => row(page, ids.INSTALL).locator('.tree-title').textContent()).toBe('Installation');
    const hide = page.getByTestId('toggle-hidden');
    expect(await hide.getAttribute('aria-checked')).toBe('false');
    await hide.click();
    await expect.poll(() => hide.getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => row(page, ids.INSTALL).getByTestId('tree-hidden').count()).toBe(1);
    expect(await row(page, ids.INSTALL).getAttribute('aria-label')).toBe('🚀 Installation, hidden from site');

    await eventually(async () => {
      const p = await rest(spaceId, `page/${ids.INSTALL}`);
      return (
        typeof p === 'object' &&
        p.emoji === '🚀' &&
        p.title === 'Installation' &&
        p.description === 'Set it up on your machine' &&
        p.hidden === true
      );
    }, 'emoji, title, description and hidden over REST');
    await shoot(page, '4-header');

    // Remove the icon.
    await page.getByTestId('page-emoji').click();
    await page.getByTestId('emoji-remove').click();
    await expect.poll(() => row(page, ids.INSTALL).locator('.tree-emoji').count()).toBe(0);
    await eventually(async () => {
      const p = await rest(spaceId, `page/${ids.INSTALL}`);
      return typeof p === 'object' && p.emoji === undefined;
    }, 'the icon removed over REST');
    await page.close();
  });

  it('changes the slug with validation; the old path (and its sub-pages) still resolves over REST', async () => {
    const t = e2e.server;
    const { spaceId, ids } = await seededSpace('Slug space');
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await openPage(page, ids.INSTALL, 'Install');
    const slug = page.getByTestId('page-slug');
    await expect.poll(() => slug.inputValue()).toBe('install');

    // Not a slug: refused, with the reason, and the page keeps its address.
    await slug.fill('!!!');
    await expect.poll(() => slug.getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByTestId('page-slug-message').textContent()).toContain('letter or digit');
    await e2e.screenshot(page, 'tree-header-5-slug-invalid');
    await slug.press('Enter');
    await expect.poll(() => slug.inputValue()).toBe('install');

    await slug.fill('Set up');
    await slug.press('Enter');
    await expect.poll(() => slug.inputValue()).toBe('set-up');
    await expect.poll(() => page.getByTestId('page-slug-message').textContent()).toContain('/guides/install');

    await eventually(async () => {
      const p = await rest(spaceId, 'path/guides/set-up');
      return typeof p === 'object' && p.id === ids.INSTALL;
    }, 'the new path over REST');
    const old = await rest(spaceId, 'path/guides/install');
    expect(old).toMatchObject({ id: ids.INSTALL, path: 'guides/set-up' });
    expect(await rest(spaceId, 'path/guides/install/linux')).toMatchObject({
      id: ids.LINUX,
      path: 'guides/set-up/linux',
    });
    expect(await rest(spaceId, 'path/guides/nothing-here')).toBe(404);
    await page.close();
  });

  it('duplicates, moves to the top level, copies the link, deletes and undoes', async () => {
    const t = e2e.server;
    const { spaceId, ids } = await seededSpace('Actions space');
    const page = await e2e.newPage({
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await openPage(page, ids.INSTALL, 'Install');

    // Duplicate: the copy (with its sub-page and body) opens, right after the original.
    await page.getByTestId('page-actions').click();
    await page.getByRole('menu').waitFor();
    await shoot(page, '6-actions-menu');
    await page.getByTestId('action-duplicate').click();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Install (copy)');
    await eventually(async () => {
      const copy = (await restPages(spaceId)).find((p) => p.title === 'Install (copy)');
      return copy?.path === 'guides/install-copy' && copy.pages?.[0]?.title === 'Linux';
    }, 'the copy over REST');
    expect(await rest(spaceId, 'path/guides/install-copy')).toMatchObject({ markdown: 'Run the installer.\n' });

    // Move to… the top level.
    await page.getByTestId('page-actions').click();
    await page.getByTestId('action-move').click();
    await page.getByTestId('move-dialog').waitFor();
    await shoot(page, '7-move-dialog');
    await page.locator('[data-testid=move-option][data-parent=""]').click();
    await eventually(async () => {
      const p = await rest(spaceId, 'path/install-copy');
      return typeof p === 'object' && p.title === 'Install (copy)';
    }, 'the moved copy at the top level over REST');
    await expect.poll(() => page.getByTestId('breadcrumbs').getByTestId('breadcrumb').count()).toBe(0);
    // The move recorded the old path too.
    expect(await rest(spaceId, 'path/guides/install-copy')).toMatchObject({ title: 'Install (copy)' });

    // Copy link: the page's app address (urls.app form).
    await page.getByTestId('page-actions').click();
    await page.getByTestId('action-copy-link').click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(`${t.url}/app/s/${spaceId}/install-copy`);

    // Delete: gone from the tree and REST; Undo brings it back, body and sub-page included.
    const copyRowId = await page
      .locator('[data-testid=tree-row]')
      .filter({ hasText: 'Install (copy)' })
      .getAttribute('data-page-id');
    await page.getByTestId('page-actions').click();
    await page.getByTestId('action-delete').click();
    await expect.poll(() => row(page, copyRowId!).count()).toBe(0);
    await page.getByTestId('undo-toast').waitFor();
    await shoot(page, '8-undo-toast');
    await eventually(
      async () => !(await restPages(spaceId)).some((p) => p.title === 'Install (copy)'),
      'the deletion over REST',
    );
    await page.getByTestId('undo-delete').click();
    await expect.poll(() => row(page, copyRowId!).count()).toBe(1);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Install (copy)');
    await eventually(async () => {
      const p = await rest(spaceId, 'path/install-copy/linux');
      return typeof p === 'object' && p.markdown === 'Use apt.\n';
    }, 'the restored pages over REST');
    expect(await page.getByTestId('undo-toast').count()).toBe(0);
    await page.close();
  });
});
