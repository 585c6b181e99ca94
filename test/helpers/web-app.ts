import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { eventually } from './wait';

/**
 * Helpers of the desktop/web app end-to-end tests: the built renderer, a
 * plain static server for it (how Electron loads it: from disk, not from the
 * sync server, so it reloads with the sync server down), and UI steps that
 * several tests share.
 */

/** Where `npm run build` writes the renderer. */
export const RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url));

/** Fails with the fix when the renderer was not built. */
export function requireBuiltRenderer(): void {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error(
      `The renderer is not built (${RENDERER_DIR}/index.html is missing): run \`npm run build\` before the e2e tests`,
    );
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** A static file server for the built renderer on 127.0.0.1 (port 0). */
export async function startStaticServer(dir = RENDERER_DIR): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    readFile(file).then(
      (bytes) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(bytes),
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * Signs in with an API token on the sign-in screen: opens "Use an API token" when it is collapsed
 * (the server offers other methods) and "another server" when the field is hidden (the web app
 * on its own server), fills both and submits, without waiting for what opens next.
 */
export async function fillTokenSignIn(page: Page, serverUrl: string, token: string): Promise<void> {
  await page.getByTestId('sign-in-screen').waitFor();
  // The methods decide whether the token form starts open: wait for them, then look.
  await page.locator('[data-testid=sign-in-methods][data-methods]').waitFor({ state: 'attached' });
  if (!(await page.getByTestId('token').isVisible())) await page.getByTestId('use-token').click();
  if (!(await page.getByTestId('server-url').isVisible())) await page.getByTestId('another-server').click();
  await page.getByTestId('server-url').fill(serverUrl);
  await page.getByTestId('token').fill(token);
  await page.getByTestId('sign-in').click();
}

/** Fills the sign-in form and waits for the space picker. */
export async function signInThroughUi(page: Page, serverUrl: string, token: string): Promise<void> {
  await fillTokenSignIn(page, serverUrl, token);
  await page.getByTestId('org-list').waitFor();
}

/** Opens a space from the space picker and waits for its page tree. */
export async function pickSpaceThroughUi(page: Page, spaceId: string): Promise<void> {
  await page.locator(`[data-testid=space][data-space-id="${spaceId}"]`).click();
  await page.getByTestId('page-tree').waitFor();
}

/**
 * Loads the app (from `appUrl`: the sync server's /app/ by default), signs in to `serverUrl` with
 * `token` and opens the space.
 */
export async function openSpaceThroughUi(
  page: Page,
  serverUrl: string,
  token: string,
  spaceId: string,
  appUrl = `${serverUrl}/app/`,
): Promise<void> {
  await page.goto(appUrl);
  await signInThroughUi(page, serverUrl, token);
  await pickSpaceThroughUi(page, spaceId);
}

/** The id of the page open in the editor (from the URL: `/~/page/<id>` under /app/, `/pages/<id>` in the old hash form). */
export function openPageId(page: Page): string {
  return /\/(?:~\/page|pages)\/([A-Za-z0-9_-]+)/.exec(page.url())![1]!;
}

/** Answers the app's prompt dialog (new page title, subject, ...). */
export async function answerPrompt(page: Page, text: string): Promise<void> {
  await page.getByTestId('prompt-input').fill(text);
  await page.getByTestId('prompt-ok').click();
}

/** Creates a page through the tree's button and waits until its editor is open. */
export async function createPageThroughUi(page: Page, title: string): Promise<void> {
  await page.getByTestId('new-page').click();
  await answerPrompt(page, title);
  await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(title);
}

/** Types at the end (or the start) of the open page's editor. */
export async function typeInEditor(page: Page, text: string, at: 'start' | 'end' = 'end'): Promise<void> {
  const editor = page.getByTestId('editor-content');
  await editor.click();
  await page.keyboard.press(at === 'end' ? 'Control+End' : 'Control+Home');
  await page.keyboard.type(text);
}

/**
 * The open editor's markdown, read from CodeMirror's state (live preview hides syntax and draws
 * widgets in the DOM, so the DOM text is not the page). `cmTile` is the view's link from its
 * content element, what EditorView.findFromDOM reads.
 */
export function editorText(page: Page): Promise<string> {
  return page.getByTestId('editor-content').evaluate((content) => {
    const tile = (content as unknown as { cmTile?: { root?: { view?: { state: { doc: { toString(): string } } } } } })
      .cmTile;
    const view = tile?.root?.view;
    if (!view) throw new Error('no CodeMirror view on the editor content');
    return view.state.doc.toString();
  });
}

/** The sync indicator's state (online, offline, syncing, refused). */
export function syncState(page: Page): Promise<string | null> {
  return page.getByTestId('sync-status').getAttribute('data-state');
}

/**
 * Resolves once the page's IndexedDB copies stop growing: y-indexeddb stores
 * each update in its own transaction after the keystroke, so a reload right
 * after typing could otherwise cut off the last ones (a test-speed race; a
 * person cannot reload within those few milliseconds).
 */
export async function localCopiesSettled(page: Page): Promise<void> {
  const count = () =>
    page.evaluate(async () => {
      let total = 0;
      for (const { name } of await indexedDB.databases()) {
        if (!name) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onsuccess = () => resolve(open.result);
          open.onerror = () => reject(open.error);
        });
        for (const store of Array.from(db.objectStoreNames)) {
          total += await new Promise<number>((resolve) => {
            const req = db.transaction(store, 'readonly').objectStore(store).count();
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => resolve(0);
          });
        }
        db.close();
      }
      return total;
    });
  let previous = -1;
  for (let stable = 0; stable < 2;) {
    const now = await count();
    stable = now === previous ? stable + 1 : 0;
    previous = now;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A writer's way into a change request: a page `title` holding `text` written on main and synced,
 * then a change request `subject` made from the panel; resolves once the editor shows the request's copy.
 */
export async function pageThenChangeRequestThroughUi(
  page: Page,
  opts: { title: string; text: string; subject: string },
): Promise<void> {
  await createPageThroughUi(page, opts.title);
  await typeInEditor(page, opts.text);
  await eventually(async () => (await syncState(page)) === 'online', 'sync');
  await page.getByTestId('cr-new').click();
  await answerPrompt(page, opts.subject);
  await page.getByTestId('cr-badge').waitFor();
  await expect.poll(() => editorText(page)).toBe(opts.text);
}
