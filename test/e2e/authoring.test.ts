import { crc32, deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { eventually } from '../helpers/wait';
import { createPageThroughUi, editorText, openSpaceThroughUi } from '../helpers/web-app';

/**
 * Writing a page with the authoring tools only: the formatting toolbar, the
 * `/` menu, `[[` page links, pasting an image (uploaded to the real server,
 * shown at once from its bytes) and pasting HTML (converted to markdown).
 * The result is read back as markdown over REST.
 */

// Quiet period of 50 ms: REST content reads serve revisions, made after typing pauses.
const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
let orgId: string;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Authors' })).data.id;
});

/** The page's markdown as the REST API serves it (from the latest revision). */
async function restMarkdown(spaceId: string, pageId: string): Promise<string> {
  const page = (await e2e.server.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' })).data as {
    markdown?: string;
  };
  return page.markdown ?? '';
}

/** The id of the page open (from the URL: `/~/page/<id>` in history routing, `/pages/<id>` in the old hash form). */
function openPageId(page: Page): string | undefined {
  return /\/(?:~\/page|pages)\/([A-Za-z0-9_-]+)/.exec(page.url())?.[1];
}

/** A PNG of `width` x `height` pixels: a blue-to-teal gradient, so the screenshots show where it is. */
function gradientPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = y * (width * 3 + 1) + 1 + x * 3;
      rows[at] = 40;
      rows[at + 1] = Math.round(90 + (120 * x) / width);
      rows[at + 2] = Math.round(200 - (60 * y) / height);
    }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG = gradientPng(240, 120);

/** Opens the `/` menu with `query` at the cursor and chooses its first entry, checking its label. */
async function slash(page: Page, query: string, expected: string): Promise<void> {
  await page.keyboard.type(`/${query}`);
  const first = page.locator('.cm-tooltip-autocomplete li').first();
  await expect.poll(() => first.textContent()).toContain(expected);
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator('.cm-tooltip-autocomplete').count()).toBe(0);
}

/** Moves the cursor to the end of the page (out of the block just written). */
async function toEnd(page: Page): Promise<void> {
  await page.keyboard.press('Control+End');
}

/**
 * Starts watching `root` for its first image with a source; `window.firstImage_<name>` becomes a
 * promise of that first source and its decoded width (what was shown first, however soon it changes).
 */
async function watchFirstImage(page: Page, root: string, name: string): Promise<void> {
  await page.evaluate(
    ({ root, name }) => {
      (window as unknown as Record<string, Promise<unknown>>)[`firstImage_${name}`] = new Promise((resolve) => {
        const check = () => {
          const img = document.querySelector(root)?.querySelector('img[src]') as HTMLImageElement | null;
          if (!img) return;
          observer.disconnect();
          const src = img.getAttribute('src');
          img.decode().then(
            () => resolve({ src, width: img.naturalWidth }),
            () => resolve({ src, width: 0 }),
          );
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      });
    },
    { root, name },
  );
}

/** Dispatches a paste of `items` into the editor, as the browser does for a real clipboard. */
async function paste(page: Page, items: { html?: string; text?: string; png?: string; name?: string }): Promise<void> {
  await page.getByTestId('editor-content').evaluate((content, items) => {
    const data = new DataTransfer();
    if (items.html) data.setData('text/html', items.html);
    if (items.text) data.setData('text/plain', items.text);
    if (items.png) {
      const bytes = Uint8Array.from(atob(items.png), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], items.name ?? 'image.png', { type: 'image/png' }));
    }
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, items);
}

describe('authoring', () => {
  it('writes a page with the toolbar, the / menu, [[ links and pastes; the markdown is exact over REST', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await createPageThroughUi(page, 'Linked page');
    await expect.poll(() => openPageId(page)).toBeTruthy();
    const linkedId = openPageId(page)!;
    await createPageThroughUi(page, 'Authoring guide');
    await expect.poll(() => openPageId(page)).not.toBe(linkedId);
    const pageId = openPageId(page)!;
    await expect.poll(() => page.getByTestId('authoring-toolbar').isVisible()).toBe(true);
    await page.getByTestId('editor-content').click();

    // A heading from the toolbar.
    await page.keyboard.type('Welcome');
    await page.getByTestId('tb-h1').click();
    await expect.poll(() => editorText(page)).toBe('# Welcome');
    await toEnd(page);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await e2e.screenshot(page, 'authoring-1-heading');

    // A list from the / menu (Enter continues it; Enter on an empty item ends it).
    await slash(page, 'bul', 'Bulleted list');
    await page.keyboard.type('First item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second item');
    await expect.poll(() => editorText(page)).toContain('- First item\n- Second item');
    await toEnd(page);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await e2e.screenshot(page, 'authoring-2-list');

    // A hint from the toolbar: its placeholder is selected, typing replaces it.
    await page.getByTestId('tb-hint').click();
    await page.keyboard.type('Remember this.');
    await expect.poll(() => editorText(page)).toContain('{% hint style="info" %}\nRemember this.\n{% endhint %}');
    await toEnd(page);
    await e2e.screenshot(page, 'authoring-3-hint');

    // Tabs from the / menu, the menu shown before choosing.
    await page.keyboard.type('/tab');
    await expect
      .poll(() => page.locator('.cm-tooltip-autocomplete li').allTextContents())
      .toEqual([expect.stringContaining('Table'), expect.stringContaining('Tabs')]);
    await e2e.screenshot(page, 'authoring-4-slash-menu');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Tab one text');
    await expect
      .poll(() => editorText(page))
      .toContain('{% tabs %}\n{% tab title="Tab 1" %}\nTab one text\n{% endtab %}');
    await toEnd(page);

    // A code block from the / menu, a table from the toolbar.
    await slash(page, 'code', 'Code block');
    await page.keyboard.type('npm start');
    await toEnd(page);
    await page.getByTestId('tb-table').click();
    await page.keyboard.type('Name');
    await expect.poll(() => editorText(page)).toContain('| Name | Column 2 |\n| -------- | -------- |');
    await toEnd(page);
    await e2e.screenshot(page, 'authoring-5-code-table');

    // An image by paste: uploaded, inserted, and shown at once from its bytes (before any revision lists it):
    // the first source each view shows is the object URL of the pasted bytes, and it decodes.
    await page.getByTestId('toggle-preview').click();
    await watchFirstImage(page, '[data-testid=preview]', 'preview');
    await watchFirstImage(page, '[data-testid=editor-content]', 'editor');
    await paste(page, { png: PNG.toString('base64'), name: 'shot.png' });
    await expect.poll(() => editorText(page), { timeout: 15_000 }).toMatch(/!\[shot\]\(\/files\/[A-Za-z0-9]{20}\)/);
    for (const where of ['preview', 'editor']) {
      const first = await page.evaluate(
        (w) => (window as unknown as Record<string, Promise<unknown>>)[`firstImage_${w}`],
        where,
      );
      expect(first, where).toEqual({ src: expect.stringMatching(/^blob:/), width: 240 });
    }
    await e2e.screenshot(page, 'authoring-6-image-pasted');
    await page.getByTestId('toggle-preview').click();

    // HTML pasted from a web page becomes markdown.
    await toEnd(page);
    await paste(page, {
      html: '<h2>Pasted</h2><p>With <strong>bold</strong> and <a href="https://example.org/">a link</a>.</p><script>alert(1)</script>',
      text: 'Pasted With bold and a link.',
    });
    await expect
      .poll(() => editorText(page))
      .toContain('## Pasted\n\nWith **bold** and [a link](https://example.org/).');
    await toEnd(page);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    // [[ links a page by title.
    await page.keyboard.type('See [[Link');
    await expect.poll(() => page.locator('.cm-tooltip-autocomplete li').first().textContent()).toContain('Linked page');
    await e2e.screenshot(page, 'authoring-7-page-link');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toContain(`See [Linked page](/pages/${linkedId})`);

    // The markdown over REST is exactly what was written.
    let markdown = '';
    await eventually(async () => {
      markdown = await restMarkdown(spaceId, pageId);
      return markdown.includes(`[Linked page](/pages/${linkedId})`);
    }, 'the page link over REST');
    expect(markdown).toMatch(
      /^# Welcome\n\n- First item\n- Second item\n\n\{% hint style="info" %\}\nRemember this\.\n\{% endhint %\}\n/,
    );
    expect(markdown).toContain(
      '{% tabs %}\n{% tab title="Tab 1" %}\nTab one text\n{% endtab %}\n\n{% tab title="Tab 2" %}\nContent of the second tab.\n{% endtab %}\n{% endtabs %}',
    );
    expect(markdown).toContain('```\nnpm start\n```');
    expect(markdown).toContain('| Name | Column 2 |\n| -------- | -------- |\n|          |          |');
    expect(markdown).toMatch(/!\[shot\]\(\/files\/[A-Za-z0-9]{20}\)/);
    expect(markdown).toContain('## Pasted\n\nWith **bold** and [a link](https://example.org/).');
    expect(markdown).not.toContain('alert');
    await e2e.screenshot(page, 'authoring-8-desktop-light');

    // How it looks: dark, and on a phone.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.keyboard.press('Control+Home');
    await e2e.screenshot(page, 'authoring-9-desktop-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    await e2e.screenshot(page, 'authoring-10-phone-dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await e2e.screenshot(page, 'authoring-11-phone-light');
    await page.getByTestId('tb-more').click();
    await expect.poll(() => page.getByTestId('tb-menu').isVisible()).toBe(true);
    // Escape closes the menu from inside it: it moves focus to its first item once open.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tb-tabs');
    await e2e.screenshot(page, 'authoring-12-phone-insert-menu');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('tb-menu').count()).toBe(0);
    await page.close();
  }, 120_000);

  it('toggles the markdown source and keeps every toolbar button named and keyboard reachable', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Toolbar' })).data.id;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await createPageThroughUi(page, 'Buttons');
    const buttons = page.locator('[data-testid=authoring-toolbar] button');
    const names = await buttons.evaluateAll((all) =>
      all.map((b) => [b.getAttribute('aria-label'), b.getAttribute('title'), b.getAttribute('data-testid')]),
    );
    expect(names.length).toBeGreaterThanOrEqual(19);
    for (const [label, title, testid] of names) {
      expect(label).toBeTruthy();
      expect(title).toBeTruthy();
      expect(testid).toBeTruthy();
    }
    expect(names.find(([, , id]) => id === 'tb-bold')?.[1]).toBe('Bold (Ctrl+B)');

    // The shortcut named in a button's title does what the button does.
    await page.getByTestId('editor-content').click();
    await page.keyboard.type('word');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.press('Control+b');
    await expect.poll(() => editorText(page)).toBe('**word**');
    await page.keyboard.press('End');

    // One Tab stop, arrows move along the toolbar.
    await page.getByTestId('tb-bold').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tb-italic');

    // Every block of the Insert menu, by keyboard.
    await page.getByTestId('tb-more').click();
    const items = await page
      .locator('[data-testid=tb-menu] [role=menuitem]')
      .evaluateAll((all) => all.map((b) => b.getAttribute('data-testid')));
    expect(items).toEqual([
      'tb-tabs',
      'tb-expandable',
      'tb-embed',
      'tb-content-ref',
      'tb-file',
      'tb-cards',
      'tb-divider',
      'tb-hint-success',
      'tb-hint-warning',
      'tb-hint-danger',
      'tb-api-operation',
    ]);
    // The menu moves focus to its first item once open: arrows pressed before that would go to the editor.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await expect.poll(focused).toBe('tb-tabs');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toBe('tb-expandable');
    await page.keyboard.press('Enter');
    await expect.poll(() => editorText(page)).toContain('<details>\n\n<summary>Title</summary>');

    const source = page.getByTestId('toggle-source');
    await source.click();
    expect(await source.getAttribute('aria-pressed')).toBe('true');
    await e2e.screenshot(page, 'authoring-source-mode');
    await source.click();
    expect(await source.getAttribute('aria-pressed')).toBe('false');
    await page.close();
  });
});
