import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';
import { editorText, pickSpaceThroughUi, signInThroughUi } from '../helpers/web-app';

/**
 * Live preview from the keyboard (the built web app against a real server):
 * task checkboxes, the image resize handle and the fold button of expandables
 * are reached with Tab once Escape has left the text (CodeMirror's Tab indents;
 * Escape then Tab is its way out), carry a name and a role, show a focus ring,
 * and work from the keyboard: Space/Enter toggle a task in the markdown, arrow
 * keys resize an image in the markdown, Enter/Space fold and unfold an
 * expandable without changing the text. Escape goes back to the text.
 */

const e2e = useChromium({ app: true });
let spaceId: string;

const PAGE = [
  // A line before anything else: REST would read a leading heading as the page's title.
  'Keyboard page.',
  '',
  '- [ ] Write the docs',
  '- [x] Ship **it**',
  '',
  '<details>',
  '<summary>More details</summary>',
  '',
  'Hidden body.',
  '',
  '</details>',
  '',
  '{% expandable title="Advanced" %}',
  'Deep text.',
  '{% endexpandable %}',
  '',
  'Last line.',
].join('\n');

beforeAll(async () => {
  const orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Keyboard docs' })).data.id;
  spaceId = (await e2e.server.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  // One page per test, so each starts from PAGE.
  await seedPages(
    e2e.server,
    spaceId,
    ['Tasks', 'Image', 'Folds'].map((title) => ({ title, markdown: PAGE })),
  );
});

const TALL = { width: 1280, height: 1200 };
const content = (page: Page) => page.getByTestId('editor-content');
/** Editor lines holding `text` (a folded line is not drawn at all). */
const linesWith = (page: Page, text: string) => content(page).locator('.cm-line', { hasText: text }).count();

async function openPage(page: Page, title: string): Promise<void> {
  await page.goto(`${e2e.server.url}/app/`);
  await signInThroughUi(page, e2e.server.url, e2e.server.adminToken);
  await pickSpaceThroughUi(page, spaceId);
  await page.getByTestId('tree-row').filter({ hasText: title }).click();
  await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(title);
  await content(page).getByTestId('lp-task-checkbox').first().waitFor();
  // The cursor on the last line: every block above is drawn, none is raw.
  await content(page).locator('.cm-line', { hasText: 'Last line.' }).click();
  await page.keyboard.press('End');
}

/** What has keyboard focus: its test id, role, name, state and whether a focus ring shows. */
function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return {
      testid: el.dataset.testid ?? '',
      tag: el.tagName.toLowerCase(),
      type: el.getAttribute('type'),
      role: el.getAttribute('role'),
      name: el.getAttribute('aria-label'),
      checked: el instanceof HTMLInputElement ? el.checked : undefined,
      expanded: el.getAttribute('aria-expanded'),
      valueNow: el.getAttribute('aria-valuenow'),
      ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      opacity: style.opacity,
    };
  });
}

/** Leaves the text with Escape, then presses Tab until `testid` has focus (the widgets are in document order). */
async function tabTo(page: Page, testid: string): Promise<void> {
  await page.keyboard.press('Escape');
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    if ((await focused(page)).testid === testid) return;
  }
  throw new Error(`Tab never reached ${testid}`);
}

describe('live preview from the keyboard', () => {
  it('reaches task checkboxes with Tab and toggles them with Space and Enter', async () => {
    const page = await e2e.newPage({ viewport: TALL });
    await openPage(page, 'Tasks');
    await tabTo(page, 'lp-task-checkbox');
    expect(await focused(page)).toMatchObject({ tag: 'input', type: 'checkbox', name: 'Write the docs' });
    expect((await focused(page)).checked).toBe(false);
    expect((await focused(page)).ring).toBe(true);
    await e2e.screenshot(page, 'leftovers-keyboard-task-focus');

    await page.keyboard.press('Space');
    await expect.poll(() => editorText(page)).toContain('- [x] Write the docs');
    // Focus stays on the same task, so the next key acts on it again. A redrawn widget may get it
    // back only on the next frame (refocusWidget), so it is waited for.
    await expect
      .poll(() => focused(page))
      .toMatchObject({ testid: 'lp-task-checkbox', name: 'Write the docs', checked: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toContain('- [ ] Write the docs');
    await expect.poll(() => focused(page)).toMatchObject({ name: 'Write the docs', checked: false, ring: true });

    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ testid: 'lp-task-checkbox', name: 'Ship it', checked: true });
    await page.keyboard.press('Space');
    await expect.poll(() => editorText(page)).toContain('- [ ] Ship **it**');
    expect(await editorText(page)).toBe(PAGE.replace('- [x] Ship', '- [ ] Ship'));

    // Escape hands the keyboard back to the text.
    await page.keyboard.press('Escape');
    expect((await focused(page)).testid).toBe('editor-content');
    await page.close();
  }, 60_000);

  it('resizes an image from its handle with the arrow keys', async () => {
    const page = await e2e.newPage({ viewport: TALL });
    await openPage(page, 'Image');
    await page.keyboard.press('Enter');
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 240;
      canvas.height = 120;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#2f81f7';
      g.fillRect(0, 0, 240, 120);
      return canvas.toDataURL('image/png').split(',')[1]!;
    });
    await page
      .getByTestId('image-input')
      .setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    const img = content(page).getByTestId('lp-image').locator('img');
    await expect.poll(() => img.getAttribute('src'), { timeout: 15_000 }).toMatch(/\/v1\/files\/[0-9a-f]{64}\//);
    await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(240);
    // The cursor away from the image: its source is drawn as the image.
    await content(page).locator('.cm-line', { hasText: 'Keyboard page.' }).click();
    await expect.poll(() => linesWith(page, '![diagram]')).toBe(0);

    await tabTo(page, 'lp-image-resize');
    // The redrawn image's handle gets its aria-valuenow when that image has loaded (a load event).
    await expect
      .poll(() => focused(page))
      .toMatchObject({ role: 'slider', name: 'Width of image diagram', valueNow: '240' });
    // Shown (it is hidden until hovered or focused), with a focus ring.
    expect(await focused(page)).toMatchObject({ opacity: '1', ring: true });
    await e2e.screenshot(page, 'leftovers-keyboard-image-handle-focus');

    const width = async () =>
      /<img src="\/files\/[A-Za-z0-9_-]+" alt="diagram" width="(\d+)">/.exec(await editorText(page))?.[1];
    await page.keyboard.press('ArrowRight'); // a tenth wider
    await expect.poll(width).toBe('264');
    // The redrawn image's handle has the focus (at once, or on the next frame): the next key resizes again.
    await expect.poll(() => focused(page)).toMatchObject({ testid: 'lp-image-resize', valueNow: '264' });
    await page.keyboard.press('ArrowLeft'); // a tenth narrower
    await expect.poll(width).toBe('238');
    // A key pressed before the redrawn handle has the focus would go elsewhere.
    await expect.poll(() => focused(page)).toMatchObject({ testid: 'lp-image-resize', valueNow: '238' });
    await page.keyboard.press('ArrowLeft');
    await expect.poll(width).toBe('214');
    await expect.poll(() => focused(page)).toMatchObject({ testid: 'lp-image-resize', valueNow: '214', ring: true });
    await expect.poll(() => img.evaluate((i) => Math.round(i.getBoundingClientRect().width))).toBe(214);
    await page.close();
  }, 60_000);

  it('folds and unfolds expandables from a button reached with Tab, without changing the text', async () => {
    // bypassCSP: axe is injected as an inline script, which the app's own policy rightly forbids.
    const page = await e2e.newPage({ viewport: TALL, bypassCSP: true });
    await openPage(page, 'Folds');
    expect(await linesWith(page, 'Hidden body.')).toBe(1);
    expect(await linesWith(page, 'Deep text.')).toBe(1);

    await tabTo(page, 'lp-expandable-toggle');
    expect(await focused(page)).toMatchObject({
      tag: 'button',
      name: 'Fold “More details”',
      expanded: 'true',
      ring: true,
    });
    await page.keyboard.press('Enter');
    await expect.poll(() => linesWith(page, 'Hidden body.')).toBe(0);
    await expect
      .poll(() => focused(page))
      .toMatchObject({ name: 'Unfold “More details”', expanded: 'false', ring: true });
    expect(await linesWith(page, 'Deep text.')).toBe(1); // the other expandable stays open
    expect(await editorText(page)).toBe(PAGE);
    await page.waitForTimeout(300); // the chevron's turn settles
    await e2e.screenshot(page, 'leftovers-keyboard-expandable-folded');
    expect(seriousFindings(await axeScan(page, '.cm-editor'))).toEqual([]);

    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ name: 'Fold “Advanced”', expanded: 'true' });
    await page.keyboard.press('Space');
    await expect.poll(() => linesWith(page, 'Deep text.')).toBe(0);
    // Shift+Tab goes back from the folded button only once it has the focus again.
    await expect.poll(() => focused(page)).toMatchObject({ name: 'Unfold “Advanced”' });
    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toMatchObject({ name: 'Unfold “More details”' });
    await page.keyboard.press('Enter');
    await expect.poll(() => linesWith(page, 'Hidden body.')).toBe(1);
    // A click works too (and does not move the cursor).
    await content(page).getByRole('button', { name: 'Unfold “Advanced”' }).click();
    await expect.poll(() => linesWith(page, 'Deep text.')).toBe(1);
    expect(await editorText(page)).toBe(PAGE);

    // On the raw tag line (the cursor there), CodeMirror's fold keys fold and unfold the block.
    await content(page).locator('.cm-line', { hasText: 'Deep text.' }).click();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => linesWith(page, '{% expandable title="Advanced" %}')).toBe(1);
    await page.keyboard.press('Control+Shift+BracketLeft');
    await expect.poll(() => linesWith(page, 'Deep text.')).toBe(0);
    await page.keyboard.press('Control+Shift+BracketRight');
    await expect.poll(() => linesWith(page, 'Deep text.')).toBe(1);
    expect(await editorText(page)).toBe(PAGE);
    await page.close();
  }, 60_000);
});
