import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { newMember } from '../helpers/people';
import { seedPages } from '../helpers/seed';
import { pickSpaceThroughUi, signInThroughUi } from '../helpers/web-app';
import { axeScan, seriousFindings } from '../helpers/axe';

/**
 * Live preview in the page editor (the built web app against a real server):
 * markdown syntax is hidden away from the cursor and shown on the cursor's
 * line, GitBook blocks are drawn, the task checkbox and image resize edit the
 * markdown, source mode (Ctrl+Alt+S) shows the raw text, and a collaborator's
 * caret stays visible even inside syntax that live preview would hide.
 */
// People: Bob signs up through the server's OpenID provider (people.ts).
const e2e = useChromium({ app: true, people: true });
let orgId: string;
let spaceId: string;

// A line before the heading: REST would read a leading "# Live preview" as the page's title.
const PAGE = `Every block, drawn in place.

# Live preview

Some *emphasis*, **strong**, ~~struck~~ and \`code\` with a [docs link](https://example.com/docs).

See the [guide](https://example.com/guide).

- First bullet
- Second bullet

1. One
2. Two

- [ ] Write the docs
- [x] Ship it

> A quoted thought.

| Name | Value |
| --- | --- |
| alpha | 1 |

\`\`\`js
const answer = 42;
\`\`\`

{% hint style="info" %}
Hints keep their **body** editable.
{% endhint %}

{% tabs %}
{% tab title="macOS" %}
Use brew.
{% endtab %}
{% tab title="Linux" %}
Use apt.
{% endtab %}
{% endtabs %}

{% embed url="https://example.com/video" %}

<details>
<summary>More details</summary>

Expandable body.

</details>

{% file src="https://example.com/report.pdf" %}Quarterly report{% endfile %}

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Quick start</strong></td><td>Set up in five minutes</td><td><a href="https://example.com/start">https://example.com/start</a></td></tr><tr><td><strong>API</strong></td><td>Every endpoint</td><td></td></tr></tbody></table>

Last line.`;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Docs' })).data.id;
  spaceId = (await e2e.server.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await seedPages(e2e.server, spaceId, [
    { ref: 'other', title: 'Other page', markdown: 'The other page.\n' },
    {
      title: 'Showcase',
      markdown: ({ other }) => {
        const links = `Go to [the other page](/pages/${other}).\n\n{% content-ref url="/pages/${other}" %}\n[Other page](/pages/${other})\n{% endcontent-ref %}\n\n`;
        return PAGE.replace('Last line.', `${links}Last line.`);
      },
    },
  ]);
});

/** Tall enough that CodeMirror draws every line of the showcase page (it only draws what is near the viewport). */
const TALL = { width: 1280, height: 1600 };
const content = (page: Page) => page.getByTestId('editor-content');
/**
 * Waits for a decoration that needs the syntax tree: CodeMirror parses for 20 ms, then goes on when the
 * browser is idle, so on a loaded machine the lines below the first ones are drawn a little later.
 */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });
/** The rendered text of the editor line holding `text` (widgets included, hidden syntax not). */
const lineText = (page: Page, text: string) =>
  content(page).locator('.cm-line').filter({ hasText: text }).first().textContent();
/** The whole document, read in source mode (every character is on screen there). */
async function sourceText(page: Page): Promise<string> {
  await content(page).press('Control+Alt+s');
  await expect.poll(() => page.locator('.cm-editor').getAttribute('data-source-mode')).toBe('true');
  const text = await content(page).evaluate((el) =>
    Array.from(el.querySelectorAll('.cm-line'), (l) => {
      const copy = l.cloneNode(true) as HTMLElement;
      for (const w of Array.from(copy.querySelectorAll('.cm-ySelectionCaret, .cm-widgetBuffer'))) w.remove();
      return copy.textContent ?? '';
    }).join('\n'),
  );
  await content(page).press('Control+Alt+s');
  await expect.poll(() => page.locator('.cm-editor').getAttribute('data-source-mode')).toBe('false');
  return text;
}

async function openShowcase(page: Page, token = e2e.server.adminToken): Promise<void> {
  await page.goto(`${e2e.server.url}/app/`);
  await signInThroughUi(page, e2e.server.url, token);
  await pickSpaceThroughUi(page, spaceId);
  await page.getByTestId('tree-row').filter({ hasText: 'Showcase' }).click();
  await content(page).locator('.cm-line.cm-lp-h1').waitFor();
}

/** Puts the cursor at the end of the line holding `text` (the last line: Ctrl+End). */
async function cursorTo(page: Page, text: string): Promise<void> {
  if (text === 'Last line.') {
    await content(page).click();
    await page.keyboard.press('Control+End');
    return;
  }
  await content(page).locator('.cm-line').filter({ hasText: text }).first().click();
  await page.keyboard.press('End');
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, width, height] of [
    ['desktop', 1280, 800],
    ['desktop-full', 1280, 1600],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(50); // one layout after the resize
    await e2e.screenshot(page, `live-preview-${name}-${label}`);
  }
  await page.setViewportSize(TALL);
}

describe('live preview', () => {
  it('hides syntax away from the cursor, shows it on the cursor line, and draws blocks', async () => {
    const page = await e2e.newPage({ viewport: TALL });
    await openShowcase(page);
    await cursorTo(page, 'Last line.');

    // Away from the cursor: marks hidden, text drawn as it reads.
    expect(await content(page).locator('.cm-line.cm-lp-h1').textContent()).toBe('Live preview');
    await poll(() => lineText(page, 'Some')).toBe('Some emphasis, strong, struck and code with a docs link.');
    await expect.poll(() => content(page).locator('.cm-lp-strong').first().textContent()).toBe('strong');
    expect(await content(page).locator('.cm-lp-link').first().textContent()).toBe('docs link');
    await poll(() => content(page).locator('.cm-lp-bullet').count()).toBeGreaterThanOrEqual(2);
    expect(await lineText(page, 'First bullet')).toBe('• First bullet');
    const boxes = content(page).getByTestId('lp-task-checkbox');
    await poll(() => boxes.count()).toBe(2);
    expect(await boxes.nth(1).isChecked()).toBe(true);
    await poll(() => lineText(page, 'A quoted thought.')).toBe('A quoted thought.');
    expect(await content(page).locator('.cm-line.cm-lp-quote').count()).toBe(1);
    await poll(() => content(page).getByTestId('lp-table').locator('th').allTextContents()).toEqual(['Name', 'Value']);
    expect(await content(page).locator('.cm-line').filter({ hasText: '| Name |' }).count()).toBe(0);
    expect(await content(page).locator('.cm-lp-code-label').textContent()).toBe('js');
    expect(await content(page).locator('.cm-line.cm-lp-code').count()).toBe(3);
    expect(await content(page).locator('.cm-lp-hint-header').textContent()).toContain('Info');
    await poll(() => lineText(page, 'Hints keep')).toBe('Hints keep their body editable.');
    expect(await content(page).locator('.cm-line', { hasText: '{% hint' }).count()).toBe(0);
    expect(await content(page).getByTestId('lp-tab').allTextContents()).toEqual(['macOS', 'Linux']);
    // Only the active tab's body shows; the strip switches tabs (by moving the cursor into one).
    expect(await content(page).locator('.cm-line', { hasText: 'Use brew.' }).count()).toBe(1);
    expect(await content(page).locator('.cm-line', { hasText: 'Use apt.' }).count()).toBe(0);
    await content(page).getByTestId('lp-tab').filter({ hasText: 'Linux' }).click();
    await expect.poll(() => content(page).locator('.cm-line', { hasText: 'Use apt.' }).count()).toBe(1);
    expect(await content(page).locator('.cm-line', { hasText: 'Use brew.' }).count()).toBe(0);
    expect(await content(page).locator('.cm-lp-tab-active').textContent()).toBe('Linux');
    await cursorTo(page, 'Last line.');
    expect(await content(page).getByTestId('lp-embed').textContent()).toContain('example.com');
    expect(await content(page).locator('.cm-lp-expandable-header').textContent()).toContain('More details');
    expect(await content(page).locator('.cm-line', { hasText: '<summary>' }).count()).toBe(0);
    expect(await content(page).getByTestId('lp-file').textContent()).toContain('Quarterly report');
    expect(await content(page).getByTestId('lp-cards').locator('strong').allTextContents()).toEqual([
      'Quick start',
      'API',
    ]);
    expect(await content(page).getByTestId('lp-cards').textContent()).not.toContain('example.com/start'); // a hidden column
    // The code block is highlighted in its language (nested parsing): a keyword token is styled.
    await expect
      .poll(() =>
        content(page)
          .locator('.cm-line.cm-lp-code span')
          .filter({ hasText: 'const' })
          .evaluate((s) => getComputedStyle(s).color),
      )
      .not.toBe(
        await content(page)
          .locator('.cm-line.cm-lp-code')
          .nth(1)
          .evaluate((l) => getComputedStyle(l).color),
      );
    await shoot(page, 'light');

    // On the cursor's line the markdown shows.
    await cursorTo(page, 'Some');
    expect(await lineText(page, 'Some')).toBe(
      'Some *emphasis*, **strong**, ~~struck~~ and `code` with a [docs link](https://example.com/docs).',
    );
    expect(await content(page).locator('.cm-line.cm-lp-h1').textContent()).toBe('Live preview');
    await cursorTo(page, 'Live preview');
    expect(await content(page).locator('.cm-line.cm-lp-h1').textContent()).toBe('# Live preview');
    // A block shows as source when the cursor is inside it.
    await cursorTo(page, 'const answer');
    expect(await content(page).locator('.cm-line', { hasText: '```js' }).count()).toBe(1);
    await content(page).getByTestId('lp-table').click();
    await expect.poll(() => content(page).locator('.cm-line').filter({ hasText: '| Name |' }).count()).toBe(1);
    await cursorTo(page, 'Hints keep');
    await page.keyboard.type(' Typed');
    expect(await lineText(page, 'Hints keep')).toBe('Hints keep their **body** editable. Typed');

    // The checkbox edits the markdown.
    await cursorTo(page, 'Last line.');
    await content(page).getByTestId('lp-task-checkbox').first().click();
    const text = await sourceText(page);
    expect(text).toContain('- [x] Write the docs');
    expect(text).toContain('Hints keep their **body** editable. Typed');
    await page.close();
  }, 90_000);

  it('opens another page with Ctrl+click on a page link and from a content-ref card', async () => {
    const page = await e2e.newPage({ viewport: TALL });
    await openShowcase(page);
    await cursorTo(page, 'Last line.');
    await poll(() => lineText(page, 'Go to')).toBe('Go to the other page.');
    await content(page).getByTestId('lp-content-ref').waitFor();
    expect(await content(page).getByTestId('lp-content-ref').textContent()).toBe('Other page');
    // A plain click edits (the line shows its markdown); Ctrl+click follows the link.
    await content(page)
      .locator('.cm-lp-link', { hasText: 'the other page' })
      .click({ modifiers: ['Control'] });
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Other page');
    await page.getByTestId('tree-row').filter({ hasText: 'Showcase' }).click();
    await content(page).getByTestId('lp-content-ref').click();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Other page');
    await page.close();
  });

  it.each(['light', 'dark'] as const)('has no serious axe violation in the %s live-preview editor', async (theme) => {
    // bypassCSP: axe is injected as an inline script, which the app's own policy rightly forbids.
    const page = await e2e.newPage({ viewport: TALL, colorScheme: theme, bypassCSP: true });
    await openShowcase(page);
    await cursorTo(page, 'Last line.');
    const serious = seriousFindings(await axeScan(page, '.cm-editor'));
    expect(serious).toEqual([]);
    await page.close();
  });

  it('shows raw markdown in source mode (Ctrl+Alt+S) and back', async () => {
    const page = await e2e.newPage({ viewport: TALL });
    await openShowcase(page);
    await cursorTo(page, 'Last line.');
    expect(await page.locator('.cm-editor.cm-lp-on').count()).toBe(1);
    await content(page).press('Control+Alt+s');
    await expect.poll(() => page.locator('.cm-editor').getAttribute('data-source-mode')).toBe('true');
    expect(await page.locator('.cm-editor.cm-lp-on').count()).toBe(0);
    expect(await lineText(page, 'Live preview')).toBe('# Live preview');
    expect(await content(page).locator('.cm-line', { hasText: '{% hint style="info" %}' }).count()).toBe(1);
    expect(await content(page).locator('.cm-line', { hasText: '| Name | Value |' }).count()).toBe(1);
    expect(await content(page).getByTestId('lp-table').count()).toBe(0);
    await shoot(page, 'source');
    await content(page).press('Control+Alt+s');
    await expect.poll(() => content(page).getByTestId('lp-table').count()).toBe(1);
    await page.close();
  });

  it('uploads an image that shows inline at once, and resizing it writes a width', async () => {
    const page = await e2e.newPage({ viewport: TALL, colorScheme: 'dark' });
    await openShowcase(page);
    await cursorTo(page, 'Last line.');
    await page.keyboard.press('Enter');
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 240;
      canvas.height = 120;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#2f81f7';
      g.fillRect(0, 0, 240, 120);
      g.fillStyle = '#ffffff';
      g.font = '28px sans-serif';
      g.fillText('diagram', 60, 70);
      return canvas.toDataURL('image/png').split(',')[1]!;
    });
    await page
      .getByTestId('image-input')
      .setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    const img = content(page).getByTestId('lp-image').locator('img');
    await expect.poll(() => img.getAttribute('src'), { timeout: 15_000 }).toMatch(/\/v1\/files\/[0-9a-f]{64}\//);
    await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(240);
    await cursorTo(page, 'Live preview'); // away from the image: its source is replaced by the image
    expect(await content(page).locator('.cm-line', { hasText: '![diagram]' }).count()).toBe(0);
    await shoot(page, 'dark');

    // Drag the resize handle 100 px to the left.
    await img.scrollIntoViewIfNeeded();
    const box = (await img.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const handle = content(page).getByTestId('lp-image-resize');
    const h = (await handle.boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2 - 50, h.y + h.height / 2, { steps: 3 });
    await page.mouse.move(h.x + h.width / 2 - 100, h.y + h.height / 2, { steps: 3 });
    await page.mouse.up();
    await expect
      .poll(() => sourceText(page))
      .toMatch(/<img src="\/files\/[A-Za-z0-9_-]+" alt="diagram" width="1[34]\d">/);
    await page.close();
  });

  it('shows a collaborator’s caret in live preview, even inside hidden syntax', async () => {
    const bob = await newMember(e2e.server, orgId, 'edit', 'Bob Writer');
    const [ctxA, ctxB] = [await e2e.newContext({ viewport: TALL }), await e2e.newContext({ viewport: TALL })];
    const [a, b] = [await ctxA.newPage(), await ctxB.newPage()];
    await openShowcase(a);
    await cursorTo(a, 'Last line.');
    await openShowcase(b, bob.token);
    // Bob puts his caret inside the link's URL (before `guide).`), which live preview hides on lines without a cursor.
    await cursorTo(b, 'See the');
    for (let i = 0; i < 7; i++) await b.keyboard.press('ArrowLeft');
    await b.keyboard.type('x');

    const caret = content(a).locator('.cm-ySelectionCaret');
    await expect.poll(() => caret.count()).toBeGreaterThan(0);
    expect(await caret.first().isVisible()).toBe(true);
    await expect.poll(() => a.locator('.cm-ySelectionInfo').allTextContents()).toContain('Bob Writer');
    // Alice sees that line raw (Bob edits there), with his caret in it.
    await expect.poll(() => lineText(a, 'See the')).toContain('(https://example.com/x');
    expect(await content(a).locator('.cm-line', { hasText: 'See the' }).locator('.cm-ySelectionCaret').count()).toBe(1);
    expect(await lineText(a, 'Some')).toBe('Some emphasis, strong, struck and code with a docs link.');
    // Alice's own cursor line stays raw; elsewhere on her screen syntax stays hidden.
    expect(await content(a).locator('.cm-line.cm-lp-h1').textContent()).toBe('Live preview');
    await e2e.screenshot(a, 'live-preview-collab-alice');
    await ctxA.close();
    await ctxB.close();
  }, 60_000);
});
