import { screenshotEveryWay } from '../helpers/screenshots';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeBothSchemes } from '../helpers/axe';
import { ARTIFACTS_DIR, useChromium } from '../helpers/browser';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { newMember } from '../helpers/people';
import { seedPages } from '../helpers/seed';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * "Git sync…" on a space in the app, against the compiled server and a real smart-HTTP Git server
 * (git http-backend): an admin of the space connects a repository with a username and a token and
 * exports, sees the export succeed, and the repository holds README.md and SUMMARY.md; a wrong
 * token ends the export failed with the server's reason, never the token; Disconnect forgets the
 * sync; a reader sees the state read-only (and no "Git sync…" on a space without one). The
 * automatic sync tab either works or says the server has none. Screenshots (1280x800 and 390x844,
 * light and dark) go to test-artifacts/shots-git-sync/, and axe finds nothing serious or critical.
 */

// The Git server is on loopback, which the outbound fetcher refuses unless allowed.
const e2e = useChromium({ app: true, people: true, env: { FOLIO_OUTBOUND_ALLOW: '127.0.0.1' } });

const SHOTS = join(ARTIFACTS_DIR, 'shots-git-sync');
const shots = (page: Page, name: string) =>
  screenshotEveryWay(page, join(SHOTS, name), { atRest: true, scroller: page.getByTestId('git-sync-dialog') });
/** Operations run as jobs on a loaded machine: generous deadlines. */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 60_000, interval: 250 });

let git: GitHttpServer;
let orgId = '';
let adminToken = '';
let readerToken = '';
let lastPage: Page | undefined;

const PAGES = [
  { title: 'Welcome', markdown: 'Hello from Folio.\n' },
  { title: 'Install', markdown: '* step one\n* step two\n' },
];

async function newSpace(title: string, withPages = true): Promise<string> {
  const spaceId = (await e2e.server.client.orgs.createSpace(orgId, { title })).data.id;
  if (withPages) await seedPages(e2e.server, spaceId, PAGES);
  return spaceId;
}

async function api(token: string, method: string, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Opens the space in the app; `gitInfo`: also waits for the app's read of its Git sync (a reader's header asks). */
async function openSpace(token: string, spaceId: string, options: { gitInfo?: boolean } = {}): Promise<Page> {
  // bypassCSP: axe is injected as an inline script, which the app's own policy rightly forbids.
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page.setDefaultTimeout(20_000);
  lastPage = page;
  const info = options.gitInfo
    ? page.waitForResponse((res) => res.url().endsWith(`/v1/spaces/${spaceId}/git/info`), { timeout: 30_000 })
    : undefined;
  await page.goto(`${e2e.server.url}/app/s/${spaceId}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  await page.getByTestId('page-tree').waitFor();
  await info;
  return page;
}

async function openGitSync(page: Page): Promise<void> {
  // The menu's items are read when it opens: reopen it until the header has drawn the item.
  await poll(async () => {
    await page.getByTestId('space-actions').click();
    const found = await page.getByTestId('action-git-sync').count();
    if (!found) await page.keyboard.press('Escape');
    return found;
  }).toBe(1);
  await page.getByTestId('action-git-sync').click();
  await page.getByTestId('git-sync-dialog').waitFor();
  await page.locator('[data-testid=git-status]').waitFor();
}

const operationState = (page: Page) => page.getByTestId('git-operation').getAttribute('data-state');

/**
 * `<name>-<width>-<scheme>.png` at desktop and phone sizes, light and dark, and `…-end.png` with the
 * dialog scrolled to its end when it scrolls; leaves the page 1280 wide and light.
 */

/** Fills the repository form (credentials only when given). */
async function fillForm(page: Page, fields: { url: string; username?: string; token?: string; folder?: string }) {
  await page.getByTestId('git-url').fill(fields.url);
  if (fields.folder !== undefined) await page.getByTestId('git-folder').fill(fields.folder);
  if (fields.username !== undefined) await page.getByTestId('git-username').fill(fields.username);
  if (fields.token !== undefined) await page.getByTestId('git-token').fill(fields.token);
}

beforeAll(async () => {
  git = await startGitHttpServer();
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Git Sync Org' })).data.id;
  adminToken = (await newMember(e2e.server, orgId, 'admin', 'Ada Admin')).token;
  readerToken = (await newMember(e2e.server, orgId, 'read', 'Rita Reader')).token;
}, 120_000);

afterAll(async () => {
  await git?.close();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `git-sync-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

describe('Git sync… on a space', () => {
  let exportedSpace = '';
  let failedSpace = '';

  it('connects a repository with credentials and exports: success, and the repository holds the pages', async () => {
    exportedSpace = await newSpace('Handbook');
    await git.createRepo('handbook');
    const page = await openSpace(adminToken, exportedSpace);
    await openGitSync(page);
    // Not connected yet: the notice, an empty form with the default branch, no tabs and no Disconnect.
    await expect(page.getByTestId('git-status').getAttribute('data-state')).resolves.toBe('none');
    await expect(page.getByTestId('git-branch').inputValue()).resolves.toBe('main');
    await expect(page.getByTestId('git-tab-automatic').count()).resolves.toBe(0);
    await expect(page.getByTestId('git-disconnect').count()).resolves.toBe(0);
    await expect(page.getByTestId('git-credentials-hint').innerText()).resolves.toContain('Stored encrypted');
    await fillForm(page, { url: git.repoUrl('handbook'), username: git.username, token: git.password });
    await shots(page, 'empty');
    expect(await axeBothSchemes(page, 'empty')).toEqual([]);

    await page.getByTestId('git-commit-message').fill('Docs from the Folio panel');
    await page.getByTestId('git-export').click();
    await poll(() => operationState(page)).toBe('success');
    await expect(page.getByTestId('git-operation-title').innerText()).resolves.toBe('Export succeeded');
    await expect(page.getByTestId('git-repo').innerText()).resolves.toBe(`${new URL(git.origin).host}/handbook`);
    // The credentials are gone from the form and appear nowhere on the page.
    await expect(page.getByTestId('git-token').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('git-username').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('git-url').inputValue()).resolves.toBe(git.repoUrl('handbook'));
    await expect(page.getByTestId('git-commit-message').inputValue()).resolves.toBe('Docs from the Folio panel');
    expect(await page.locator('body').innerText()).not.toContain(git.password);
    await expect(page.getByTestId('git-credentials-hint').innerText()).resolves.toContain(
      'Leave both empty to keep the stored ones',
    );

    const files = await git.readFiles('handbook', 'main');
    expect(files.get('README.md')?.toString()).toContain('Hello from Folio.');
    expect(files.get('SUMMARY.md')?.toString()).toContain('Install');
    const head = (await git.head('handbook', 'main'))!;
    expect((await git.showCommit('handbook', head)).message).toBe('Docs from the Folio panel');
    await expect(page.getByTestId('git-sync-dialog').innerText()).resolves.toContain(head.slice(0, 7));
    await shots(page, 'exported');
    expect(await axeBothSchemes(page, 'exported')).toEqual([]);

    // A second export with the stored credentials (none typed) makes no commit: nothing changed.
    const ended = () => page.locator('[data-testid=git-operation] time').getAttribute('datetime');
    const first = await ended();
    await page.getByTestId('git-export').click();
    await poll(async () => `${await operationState(page)} ${(await ended()) !== first}`).toBe('success true');
    expect(await git.head('handbook', 'main')).toBe(head);
  });

  it('follows a running import until it ends, and the pages arrive in the tree', async () => {
    const spaceId = await newSpace('Imported', false);
    await git.createRepo('imported', {
      'README.md': '# Intro\n\nWelcome from the repository.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Intro](README.md)\n* [Setup](setup.md)\n',
      'setup.md': '# Setup\n\nRun it.\n',
    });
    // The Git server holds every request until the test lets it go: the import stays running meanwhile.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    git.beforeAnswer = () => gate;
    try {
      const page = await openSpace(adminToken, spaceId);
      await openGitSync(page);
      await fillForm(page, { url: git.repoUrl('imported'), token: git.password, username: git.username });
      await page.getByTestId('git-import').click();
      await poll(() => operationState(page)).toBe('running');
      await expect(page.getByTestId('git-operation-title').innerText()).resolves.toBe('Importing from Git…');
      await expect(page.getByTestId('git-import').isDisabled()).resolves.toBe(true);
      await expect(page.getByTestId('git-export').isDisabled()).resolves.toBe(true);
      await page.getByTestId('git-running-note').waitFor();
      await shots(page, 'running');
      expect(await axeBothSchemes(page, 'running')).toEqual([]);
      release();
      await poll(() => operationState(page)).toBe('success');
      await expect(page.getByTestId('git-operation-title').innerText()).resolves.toBe('Import succeeded');
      await expect(page.getByTestId('git-export').isDisabled()).resolves.toBe(false);
      await page.getByTestId('git-close').click();
      await poll(async () => (await page.locator('[data-testid=tree-row]').allInnerTexts()).join('|')).toMatch(
        /Intro.*Setup/,
      );
    } finally {
      release();
      git.beforeAnswer = undefined;
    }
  });

  it('shows the automatic sync, or says the server has none', async () => {
    const settings = await api(adminToken, 'GET', `/spaces/${exportedSpace}/git/settings`);
    const page = await openSpace(adminToken, exportedSpace);
    await openGitSync(page);
    await page.getByTestId('git-tab-automatic').click();
    if (settings.status === 404) {
      await page.getByTestId('git-auto-unavailable').waitFor();
      await expect(page.getByTestId('git-auto-unavailable').innerText()).resolves.toContain(
        'not available on this server',
      );
    } else {
      expect(settings.status).toBe(200);
      await page.getByTestId('git-auto').waitFor();
      const saved = async () =>
        (await api(adminToken, 'GET', `/spaces/${exportedSpace}/git/settings`)).body as {
          exportOnMerge: boolean;
          importOnPush: boolean;
          pollMinutes: number | null;
          webhookUrl?: string | null;
        };
      const box = page.getByTestId('git-export-on-merge');
      const before = await box.isChecked();
      await box.click();
      await poll(() => page.getByTestId('git-auto-saved').innerText()).toBe('Saved.');
      expect((await saved()).exportOnMerge).toBe(!before);

      // Import on push: the webhook's URL to copy, and a new one on demand (the old one then stops working).
      await page.getByTestId('git-import-on-push').check();
      await poll(async () => (await saved()).importOnPush).toBe(true);
      const webhook = page.getByTestId('git-webhook-url');
      await webhook.waitFor();
      const first = await webhook.inputValue();
      expect(first).toBe((await saved()).webhookUrl);
      await page.getByTestId('git-webhook-rotate').click();
      await page.getByTestId('confirm-yes').click();
      await poll(() => webhook.inputValue()).not.toBe(first);
      expect(await webhook.inputValue()).toBe((await saved()).webhookUrl);

      // Polling: on with the interval shown, then a value out of bounds is refused before any request.
      await page.getByTestId('git-poll').check();
      await poll(async () => (await saved()).pollMinutes).toBe(15);
      // One save at a time (a change made while one runs is dropped): wait for this one's answer.
      await poll(() => page.getByTestId('git-auto-saved').innerText()).toBe('Saved.');
      // The field takes the saved interval when the save lands: a value typed just before that is replaced,
      // as it would be for a person, who then types it again.
      const minutes = page.getByTestId('git-poll-minutes');
      await poll(async () => {
        await minutes.fill('3');
        await minutes.press('Tab');
        return page.getByTestId('git-auto-error').innerText();
      }).toContain('from 5 to 1440');
      await page.getByTestId('git-poll-minutes').fill('30');
      await page.getByTestId('git-poll-minutes').press('Tab');
      await poll(async () => (await saved()).pollMinutes).toBe(30);
      await expect(page.getByTestId('git-poll-hint').innerText()).resolves.toContain('New commits it finds');
    }
    await shots(page, 'automatic');
    expect(await axeBothSchemes(page, 'automatic')).toEqual([]);
  });

  it('shows a failed export with the server’s reason, never the token', async () => {
    failedSpace = await newSpace('Wrong token');
    await git.createRepo('wrong');
    const page = await openSpace(adminToken, failedSpace);
    await openGitSync(page);
    const badToken = 'not-the-right-token-5f3a';
    await fillForm(page, { url: git.repoUrl('wrong'), username: git.username, token: badToken, folder: 'docs' });
    await page.getByTestId('git-export').click();
    await poll(() => operationState(page)).toBe('failure');
    await expect(page.getByTestId('git-operation-title').innerText()).resolves.toBe('Export failed');
    const reason = await page.getByTestId('git-operation-error').innerText();
    expect(reason).toContain('refused the credentials');
    expect(reason).not.toContain(badToken);
    expect(await page.locator('body').innerText()).not.toContain(badToken);
    await expect(page.getByTestId('git-token').inputValue()).resolves.toBe('');
    await expect(page.getByTestId('git-folder').inputValue()).resolves.toBe('docs');
    expect(await git.head('wrong', 'main')).toBeNull();
    await shots(page, 'failed');
    expect(await axeBothSchemes(page, 'failed')).toEqual([]);
  });

  it('checks the form before asking the server, and shows the server’s refusals', async () => {
    const page = await openSpace(adminToken, failedSpace);
    await openGitSync(page);
    await page.getByTestId('git-url').fill('git@github.com:acme/docs.git');
    await page.getByTestId('git-import').click();
    await poll(() => page.getByTestId('git-form-error').innerText()).toContain('not SSH');
    await page.getByTestId('git-url').fill(git.repoUrl('wrong'));
    await page.getByTestId('git-username').fill('someone');
    await page.getByTestId('git-export').click();
    await poll(() => page.getByTestId('git-form-error').innerText()).toContain('Enter the token');
    await page.getByTestId('git-username').fill('');
    await page.getByTestId('git-commit-message').fill('');
    await page.getByTestId('git-export').click();
    await poll(() => page.getByTestId('git-form-error').innerText()).toContain('commit message');
    // Force asks first; cancelling sends nothing.
    await page.getByTestId('git-commit-message').fill('Forced');
    await page.getByTestId('git-force').check();
    await page.getByTestId('git-force-warning').waitFor();
    await page.getByTestId('git-export').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('git-operation').getAttribute('data-state')).resolves.toBe('failure');
  });

  it('shows a reader the state read-only, and no "Git sync…" on a space without one', async () => {
    // A reader's menu offers "Git sync…" once the app has read that the space has one.
    const page = await openSpace(readerToken, failedSpace, { gitInfo: true });
    await openGitSync(page);
    await expect(page.getByTestId('git-operation-title').innerText()).resolves.toBe('Export failed');
    await expect(page.getByTestId('git-sync').getAttribute('data-manage')).resolves.toBe('false');
    await page.getByTestId('git-readonly').waitFor();
    // No controls: nothing to type in, and Close is the only button.
    await expect(page.locator('[data-testid=git-sync-dialog] input').count()).resolves.toBe(0);
    await expect(page.locator('[data-testid=git-sync-dialog] button').allInnerTexts()).resolves.toEqual(['Close']);
    await shots(page, 'reader');
    expect(await axeBothSchemes(page, 'reader')).toEqual([]);
    await page.getByTestId('git-close').click();

    const plain = await newSpace('No sync', false);
    const other = await openSpace(readerToken, plain, { gitInfo: true });
    await other.getByTestId('space-actions').click();
    await other.getByTestId('action-rename-space').waitFor();
    await expect(other.getByTestId('action-git-sync').count()).resolves.toBe(0);
  });

  it('disconnects after a confirmation', async () => {
    const page = await openSpace(adminToken, exportedSpace);
    await openGitSync(page);
    await page.getByTestId('git-disconnect').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-yes').click();
    await poll(() => page.getByTestId('git-status').getAttribute('data-state')).toBe('none');
    await expect(page.getByTestId('git-disconnect').count()).resolves.toBe(0);
    // The form empties in an effect after the disconnected state's first paint.
    await poll(() => page.getByTestId('git-url').inputValue()).toBe('');
    expect((await api(adminToken, 'GET', `/spaces/${exportedSpace}/git/info`)).status).toBe(404);
  });
});
