import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import { fails, ok, raw } from '../helpers/api';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Git sync through GitBook's operations (importGitRepository, exportToGitRepository,
 * getSpaceGitInfo, the legacy installation) against a real smart-HTTP server (`git http-backend`
 * with basic auth) on 127.0.0.1, checked with the git CLI: an export in GitBook's layout, a round
 * trip that makes no commit, an edit pushed with git and imported, conflicts kept apart in a change
 * request, a diverged branch refused, credentials never shown, and bad input refused.
 */

let t: TestServer;
let git: GitHttpServer;
let orgId: string;

const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

beforeAll(async () => {
  git = await startGitHttpServer();
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  orgId = (await t.client.orgs.createOrganization({ title: 'Git Org' })).data.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await git?.close();
});

/** The repository URL with the test server's credentials in it (as GitBook's callers send it). */
const withAuth = (name: string) => git.repoUrl(name).replace('http://', `http://${git.username}:${git.password}@`);

async function newSpace(title: string): Promise<string> {
  return (await t.client.orgs.createSpace(orgId, { title })).data.id;
}

/** Writes through a merged change request (as a script would). */
async function write(spaceId: string, changes: unknown[]): Promise<{ changes: { page?: { id: string } }[] }> {
  const cr = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
  const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
    token: t.adminToken,
    body: { changes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await ok('mergeChangeRequest', t.client.spaces.mergeChangeRequest(spaceId, cr));
  return res.body as { changes: { page?: { id: string } }[] };
}

/** Starts an operation through the official client (204, validated against GitBook's schema), runs the queue, answers the state. */
async function run(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
  if (direction === 'import')
    await ok('importGitRepository', t.client.spaces.importGitRepository(spaceId, body as never), 204);
  else await ok('exportToGitRepository', t.client.spaces.exportToGitRepository(spaceId, body as never), 204);
  await t.server.ctx.jobRunner.drain();
  return ok('getSpaceGitInfo', t.client.spaces.getSpaceGitInfo(spaceId));
}

const pagesOf = async (spaceId: string) =>
  (await ok('listPages', t.client.spaces.listPages(spaceId))).pages as RevisionPage[];
const titles = (pages: readonly RevisionPage[]): unknown[] =>
  pages.map((p) => ('pages' in p && p.pages?.length ? [p.title, titles(p.pages as RevisionPage[])] : p.title));
const text = (files: Map<string, Buffer>, path: string) => files.get(path)?.toString('utf8');

describe('export', () => {
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await newSpace('Handbook');
    await git.createRepo('handbook');
    await write(spaceId, [
      {
        operation: 'insert_files',
        files: [
          { ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: Buffer.from(png).toString('base64') },
        ],
      },
      {
        operation: 'insert_page',
        ref: 'welcome',
        title: 'Welcome',
        document: { markdown: 'Hello.\n\n![Logo](./logo)\n' },
      },
      {
        operation: 'insert_page',
        ref: 'guide',
        title: 'Guide',
        document: { markdown: '---\ndescription: How to\n---\n# Guide\n\nSee [the setup](./setup.md).\n' },
      },
      {
        operation: 'insert_page',
        ref: 'setup',
        title: 'Setup',
        into: undefined,
        document: { markdown: '- one\n- two\n' },
      },
    ]);
  });

  it('writes GitBook’s layout as one commit, authored by the caller, on the branch', async () => {
    const info = await run(spaceId, 'export', {
      url: withAuth('handbook'),
      ref: 'refs/heads/main',
      commitMessage: 'First export',
    });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    const head = await git.head('handbook', 'main');
    expect(head).toBeTruthy();
    const commit = await git.showCommit('handbook', head!);
    expect(commit.message.trim()).toBe('First export');
    const files = await git.readFiles('handbook', 'main');
    expect([...files.keys()].sort()).toEqual(expect.arrayContaining(['README.md', 'SUMMARY.md']));
    const summary = text(files, 'SUMMARY.md')!;
    expect(summary.indexOf('Welcome')).toBeLessThan(summary.indexOf('Guide'));
    expect(summary.indexOf('Guide')).toBeLessThan(summary.indexOf('Setup'));
    const asset = [...files.keys()].find((k) => k.startsWith('.gitbook/assets/'));
    expect(asset).toBeTruthy();
    expect(Buffer.compare(files.get(asset!)!, Buffer.from(png))).toBe(0);
    const guide = [...files.entries()].find(([, v]) => v.toString().includes('See [the setup]'));
    expect(guide?.[1].toString()).toContain('description: How to');
    expect(guide?.[1].toString()).toMatch(/\[the setup\]\([^)]*setup\.md\)/);
    // Credentials are stored sealed and never shown.
    expect(JSON.stringify(info)).not.toContain(git.password);
  });

  it('makes no commit when nothing changed', async () => {
    const before = await git.head('handbook', 'main');
    const info = await run(spaceId, 'export', {
      url: git.repoUrl('handbook'),
      ref: 'refs/heads/main',
      commitMessage: 'Again',
    });
    expect(info.operation).toMatchObject({ state: 'success' });
    expect(await git.head('handbook', 'main')).toBe(before);
  });

  it('imports an edit pushed with git, changing only that page, and a round trip makes no commit', async () => {
    const files = await git.readFiles('handbook', 'main');
    const [path, bytes] = [...files.entries()].find(([, v]) => v.toString().includes('- one'))!;
    await git.pushCommit(
      'handbook',
      'main',
      { [path]: bytes.toString().replace('- two', '- two\n- three') },
      'Add a step',
    );
    const before = await pagesOf(spaceId);
    const info = await run(spaceId, 'import', { url: git.repoUrl('handbook'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    const after = await pagesOf(spaceId);
    expect(titles(after)).toEqual(titles(before));
    const setup = (await ok('getPageByPath', t.client.spaces.getPageByPath(spaceId, 'setup'))) as { markdown: string };
    expect(setup.markdown).toContain('- three');
    const head = await git.head('handbook', 'main');
    await run(spaceId, 'export', { url: git.repoUrl('handbook'), ref: 'refs/heads/main', commitMessage: 'No-op' });
    expect(await git.head('handbook', 'main')).toBe(head);
  });

  it('refuses to export over commits it has not imported, and says what to do', async () => {
    await git.pushCommit('handbook', 'main', { 'CONTRIBUTING.md': 'Be kind.\n' }, 'Outside change');
    const head = await git.head('handbook', 'main');
    const info = await run(spaceId, 'export', {
      url: git.repoUrl('handbook'),
      ref: 'refs/heads/main',
      commitMessage: 'Blocked',
    });
    expect(info.operation).toMatchObject({ state: 'failure' });
    expect((info.operation as { error: string }).error).toMatch(/import the repository first/);
    expect(await git.head('handbook', 'main')).toBe(head);
  });

  it('leaves files it does not know alone', async () => {
    await run(spaceId, 'import', { url: git.repoUrl('handbook'), ref: 'refs/heads/main' });
    await write(spaceId, [{ operation: 'insert_page', title: 'FAQ', document: { markdown: 'Ask.\n' } }]);
    await run(spaceId, 'export', { url: git.repoUrl('handbook'), ref: 'refs/heads/main', commitMessage: 'Add FAQ' });
    const files = await git.readFiles('handbook', 'main');
    expect(text(files, 'CONTRIBUTING.md')).toBe('Be kind.\n');
    expect([...files.values()].some((v) => v.toString().includes('Ask.'))).toBe(true);
  });
});

describe('import of a repository written in another style', () => {
  const style: Record<string, string> = {
    'README.md':
      '---\ntitle: Home\nowner: docs-team\ndescription: Start here\n---\n\n# Home\n\nWelcome\n=======\n\n* first\n* second\n',
    'SUMMARY.md':
      '# Table of contents\n\n* [Home](README.md)\n\n## Guides\n\n* [Install](guides/install.md)\n  * [Linux](guides/install/linux.md)\n* [Usage](usage.md)\n',
    'guides/install.md': '# Install\n\nThis line is hard\nwrapped at forty columns\nby another formatter.\r\n',
    'guides/install/linux.md': '# Linux\n\n{% hint style="info" %}\nUse apt.\n{% endhint %}\n',
    'usage.md': '# Usage\n\nRun it.\n',
  };
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await newSpace('Styled');
    await git.createRepo('styled', style);
  });

  it('reads the tree, groups and blocks', async () => {
    const info = await run(spaceId, 'import', { url: withAuth('styled'), ref: 'refs/heads/main', force: true });
    expect(info.operation, JSON.stringify(info)).toMatchObject({ state: 'success' });
    const pages = await pagesOf(spaceId);
    expect(titles(pages)).toEqual(['Home', ['Guides', [['Install', ['Linux']], 'Usage']]]);
    const linux = (await ok('getPageByPath', t.client.spaces.getPageByPath(spaceId, 'guides/install/linux'))) as {
      markdown: string;
    };
    expect(linux.markdown).toContain('{% hint style="info" %}');
  });

  it('exports every untouched file byte-identical after an edit of one other page', async () => {
    const usage = (await ok('getPageByPath', t.client.spaces.getPageByPath(spaceId, 'guides/usage'))) as { id: string };
    await write(spaceId, [
      { operation: 'update_page', page: usage.id, document: { markdown: '# Usage\n\nRun it twice.\n' } },
    ]);
    await run(spaceId, 'export', { url: git.repoUrl('styled'), ref: 'refs/heads/main', commitMessage: 'Edit usage' });
    const files = await git.readFiles('styled', 'main');
    for (const [path, content] of Object.entries(style))
      if (path !== 'usage.md' && path !== 'SUMMARY.md') expect(text(files, path), path).toBe(content);
    expect(text(files, 'SUMMARY.md')).toBe(style['SUMMARY.md']);
    expect(text(files, 'usage.md')).toBe('# Usage\n\nRun it twice.\n');
  });
});

describe('conflicts', () => {
  it('keeps the space’s version of a page changed on both sides and opens a change request with the repository’s', async () => {
    const spaceId = await newSpace('Both');
    await git.createRepo('both');
    const written = await write(spaceId, [
      { operation: 'insert_page', title: 'Notes', document: { markdown: 'Line one.\n' } },
    ]);
    const pageId = written.changes[0]!.page!.id;
    await run(spaceId, 'export', { url: withAuth('both'), ref: 'refs/heads/main', commitMessage: 'Start' });
    const files = await git.readFiles('both', 'main');
    const [path] = [...files.entries()].find(([, v]) => v.toString().includes('Line one.'))!;
    await git.pushCommit('both', 'main', { [path]: '# Notes\n\nLine one, from Git.\n' });
    await write(spaceId, [
      { operation: 'update_page', page: pageId, document: { markdown: 'Line one, from Folio.\n' } },
    ]);
    const info = await run(spaceId, 'import', { url: git.repoUrl('both'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success' });
    const page = (await ok('getPageById', t.client.spaces.getPageById(spaceId, pageId))) as { markdown: string };
    expect(page.markdown).toContain('from Folio');
    const crs = await ok(
      'listChangeRequestsForSpace',
      t.client.spaces.listChangeRequestsForSpace(spaceId, { status: 'draft' as never }),
    );
    const cr = crs.items.find((c) => /Git import/.test(c.subject ?? ''));
    expect(cr).toBeTruthy();
    const crPage = await raw(t, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr!.id}/content/page/${pageId}`, {
      token: t.adminToken,
    });
    expect((crPage.body as { markdown: string }).markdown).toContain('from Git');
  });
});

describe('an export interrupted after its push landed', () => {
  it('recognises its own commit when it runs again, records it, and makes no other', async () => {
    const spaceId = await newSpace('Interrupted');
    await git.createRepo('interrupted');
    const written = await write(spaceId, [
      { operation: 'insert_page', title: 'Page', document: { markdown: 'One.\n' } },
    ]);
    const pageId = written.changes[0]!.page!.id;
    await run(spaceId, 'export', { url: withAuth('interrupted'), ref: 'refs/heads/main', commitMessage: 'First' });
    const db = t.server.ctx.db;
    const [before] = await db.query<{ baseline: unknown; last_commit: string }>(
      'SELECT baseline, last_commit FROM space_git_sync WHERE space_id = $1',
      [spaceId],
    );
    await write(spaceId, [{ operation: 'update_page', page: pageId, document: { markdown: 'Two.\n' } }]);
    await run(spaceId, 'export', { url: git.repoUrl('interrupted'), ref: 'refs/heads/main', commitMessage: 'Second' });
    const pushed = await git.head('interrupted', 'main');
    // As if the process died right after the push: the space's sync still says the first commit, and the
    // job that pushed is queued again with the progress it saved before pushing.
    await db.query('UPDATE space_git_sync SET baseline = $2, last_commit = $3 WHERE space_id = $1', [
      spaceId,
      JSON.stringify(before!.baseline),
      before!.last_commit,
    ]);
    const userId = (await t.client.user.getAuthenticatedUser()).data.id;
    // Queued with its progress in one transaction: a runner must not pick it up before the progress is there.
    await db.transaction(async (tx) => {
      const job = await t.server.ctx.jobRunner.enqueue(
        {
          kind: 'git-export',
          payload: { spaceId, organizationId: orgId, userId, commitMessage: 'Second' },
          organizationId: orgId,
          subject: `git:${spaceId}`,
        },
        tx,
      );
      await tx.query('UPDATE jobs SET progress = $2 WHERE id = $1', [
        job.id,
        JSON.stringify({ pushingFrom: before!.last_commit }),
      ]);
    });
    await t.server.ctx.jobRunner.drain();
    const info = await ok('getSpaceGitInfo', t.client.spaces.getSpaceGitInfo(spaceId));
    expect(info.operation).toMatchObject({ state: 'success' });
    expect((info as { commit?: string }).commit).toBe(pushed);
    expect(await git.head('interrupted', 'main')).toBe(pushed);
  });
});

describe('info, the legacy installation and bad input', () => {
  it('answers 404 without a Git sync, and forgets it (idempotently) with the legacy installation', async () => {
    const spaceId = await newSpace('Bare');
    await fails(t.client.spaces.getSpaceGitInfo(spaceId), 404);
    await git.createRepo('bare', { 'README.md': '# Bare\n' });
    const info = await run(spaceId, 'import', { url: withAuth('bare'), ref: 'refs/heads/main', force: true });
    expect(info).toMatchObject({ installationStatus: 'active', repoName: 'bare', ref: 'refs/heads/main' });
    for (let i = 0; i < 2; i++)
      expect(
        (await raw(t, 'DELETE', `/v1/spaces/${spaceId}/git/legacy-installation`, { token: t.adminToken })).status,
      ).toBe(204);
    await fails(t.client.spaces.getSpaceGitInfo(spaceId), 404);
  });

  it('reports a wrong password without repeating it', async () => {
    const spaceId = await newSpace('Denied');
    const url = git.repoUrl('bare').replace('http://', 'http://writer:not-the-password@');
    const info = await run(spaceId, 'import', { url, ref: 'refs/heads/main', force: true });
    expect(info.operation).toMatchObject({ state: 'failure' });
    expect(JSON.stringify(info)).not.toContain('not-the-password');
  });

  it('refuses bad input with a 400 and records nothing', async () => {
    const spaceId = await newSpace('Refusals');
    const post = (body: unknown) => raw(t, 'POST', `/v1/spaces/${spaceId}/git/import`, { token: t.adminToken, body });
    for (const body of [
      { url: 'ftp://example.com/repo.git', ref: 'refs/heads/main' },
      { url: 'not a url', ref: 'refs/heads/main' },
      { url: git.repoUrl('bare'), ref: 'main' },
      { url: git.repoUrl('bare'), ref: 'refs/heads/a..b' },
      { url: git.repoUrl('bare'), ref: 'refs/heads/main', repoProjectDirectory: '../outside' },
      { url: git.repoUrl('bare') },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as { error: { code: number } }).error.code).toBe(400);
    }
    const exp = await raw(t, 'POST', `/v1/spaces/${spaceId}/git/export`, {
      token: t.adminToken,
      body: { url: git.repoUrl('bare'), ref: 'refs/heads/main' },
    });
    expect(exp.status).toBe(400);
    await fails(t.client.spaces.getSpaceGitInfo(spaceId), 404);
  });
});
