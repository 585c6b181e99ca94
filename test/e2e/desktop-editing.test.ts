import { beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { newMember } from '../helpers/people';
import { eventually } from '../helpers/wait';
import {
  createPageThroughUi,
  editorText,
  openSpaceThroughUi,
  syncState,
  typeInEditor,
  fillTokenSignIn,
} from '../helpers/web-app';

/**
 * The web app (the desktop renderer served by the sync server at /app/) in
 * headless Chromium against a real server: signing in, creating and typing
 * a page, and two people editing the same page at once.
 */

// Quiet period of 50 ms: REST content reads serve revisions, made after typing pauses.
// People: Bob signs up through the server's OpenID provider (people.ts).
const e2e = useChromium({ app: true, people: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
let orgId: string;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Docs Team' })).data.id;
});

/** The page's markdown as the REST API serves it (from the latest revision). */
async function restMarkdown(spaceId: string, title: string): Promise<string | undefined> {
  const client = e2e.server.client;
  const pages = (await client.spaces.listPages(spaceId)).data.pages as { id: string; title: string }[];
  const found = pages.find((p) => p.title === title);
  if (!found) return undefined;
  const page = (await client.spaces.getPageById(spaceId, found.id)).data as { markdown?: string };
  return page.markdown;
}

describe('desktop app in a browser', () => {
  it('serves the app at /app/ and answers CORS preflights for the API', async () => {
    const t = e2e.server;
    const res = await fetch(`${t.url}/app/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<div id="app">');
    const preflight = await fetch(`${t.url}/v1/user`, {
      method: 'OPTIONS',
      headers: {
        origin: 'null',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    // A refusal still carries CORS headers, so the app can show the API's message.
    const refused = await fetch(`${t.url}/v1/user`, { headers: { origin: 'null' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Bearer/);
  });

  it('refuses a wrong token at sign-in with the server’s message', async () => {
    const t = e2e.server;
    const page = await e2e.newPage();
    await page.goto(`${t.url}/app/`);
    await fillTokenSignIn(page, t.url, 'not-a-real-token');
    await expect.poll(() => page.getByTestId('sign-in-error').textContent()).toContain('Invalid API token');
    await e2e.screenshot(page, 'desktop-sign-in-refused');
    await page.close();
  });

  it('signs in, creates a page, types into it; the text is visible through REST', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
    const page = await e2e.newPage();
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await expect.poll(() => page.getByTestId('create-first-page').isVisible()).toBe(true); // the empty state
    await createPageThroughUi(page, 'Getting started');
    await page.getByTestId('toggle-preview').click(); // the reading view (rendered preview) is off by default
    await typeInEditor(page, 'Hello from the desktop app. ');
    await typeInEditor(page, 'Written in **markdown**.');
    await expect.poll(() => page.getByTestId('preview').innerHTML()).toContain('<strong>markdown</strong>');
    await eventually(
      async () =>
        (await restMarkdown(spaceId, 'Getting started'))?.includes(
          'Hello from the desktop app. Written in **markdown**.',
        ) ?? false,
      'the typed text over REST',
    );
    expect(await syncState(page)).toBe('online');

    // An image: uploaded to storage, registered in the space's files, shown in the preview.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await page.getByTestId('image-input').setInputFiles({ name: 'diagram.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => editorText(page)).toMatch(/!\[diagram\]\(\/files\/[A-Za-z0-9]{20}\)/);
    await expect
      .poll(() => page.locator('[data-testid=preview] img').getAttribute('src'), { timeout: 15_000 })
      .toMatch(/\/v1\/files\/[0-9a-f]{64}\/diagram\.png\?/);
    await expect
      .poll(() => page.locator('[data-testid=preview] img').evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBe(1);
    const files = (await t.client.spaces.listFiles(spaceId)).data.items as {
      name: string;
      contentType: string;
      size: number;
    }[];
    expect(files.map((f) => [f.name, f.contentType, f.size])).toEqual([['diagram.png', 'image/png', png.byteLength]]);
    await e2e.screenshot(page, 'desktop-create-and-type');
    await page.close();
  });

  it('two people edit the same page at once, see each other’s cursor, and converge', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Shared notes' })).data.id;
    const bob = await newMember(t, orgId, 'edit', 'Bob Writer');
    const [ctxA, ctxB] = [await e2e.newContext(), await e2e.newContext()];
    const [a, b] = [await ctxA.newPage(), await ctxB.newPage()];
    await openSpaceThroughUi(a, t.url, t.adminToken, spaceId);
    await createPageThroughUi(a, 'Meeting notes');
    await typeInEditor(a, 'Agenda:\n');
    await openSpaceThroughUi(b, t.url, bob.token, spaceId);
    await b.getByTestId('tree-row').filter({ hasText: 'Meeting notes' }).click();
    await expect.poll(() => editorText(b)).toContain('Agenda:');

    // Both type at the same time, in different places (at one spot, concurrent keystrokes interleave, as they should).
    await Promise.all([typeInEditor(a, 'Alice was here. ', 'start'), typeInEditor(b, 'Bob was here too. ')]);
    for (const p of [a, b]) {
      await expect.poll(() => editorText(p)).toContain('Alice was here.');
      await expect.poll(() => editorText(p)).toContain('Bob was here too.');
    }
    await eventually(async () => (await editorText(a)) === (await editorText(b)), 'both editors to converge');

    // Each sees the other's cursor, labelled with their name (awareness).
    await expect.poll(() => a.locator('.cm-ySelectionInfo').allTextContents()).toContain('Bob Writer');
    await expect.poll(() => b.locator('.cm-ySelectionInfo').allTextContents()).toContain('Administrator');
    await expect.poll(() => a.getByTestId('presence').textContent()).toContain('Bob Writer');
    await e2e.screenshot(a, 'desktop-collab-alice');
    await e2e.screenshot(b, 'desktop-collab-bob');
    await ctxA.close();
    await ctxB.close();
  });
});
