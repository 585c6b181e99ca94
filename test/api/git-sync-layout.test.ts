import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import { ok, raw } from '../helpers/api';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Git sync and GitBook's repository layout, against a real smart-HTTP server: `.gitbook.yaml`
 * redirects become former paths of their pages on import (the old path answers the page), a page
 * Folio moves gets a redirect on export (the rest of `.gitbook.yaml` byte-identical), and assets
 * changed or deleted with git are updated in place or deleted in the space — after which an export
 * makes no commit.
 */

let t: TestServer;
let git: GitHttpServer;
let orgId: string;

beforeAll(async () => {
  git = await startGitHttpServer();
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  orgId = (await t.client.orgs.createOrganization({ title: 'Git Layout Org' })).data.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await git?.close();
});

const withAuth = (name: string) => git.repoUrl(name).replace('http://', `http://${git.username}:${git.password}@`);
const newSpace = async (title: string) => (await t.client.orgs.createSpace(orgId, { title })).data.id;

async function run(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
  if (direction === 'import')
    await ok('importGitRepository', t.client.spaces.importGitRepository(spaceId, body as never), 204);
  else
    await ok(
      'exportToGitRepository',
      t.client.spaces.exportToGitRepository(spaceId, { commitMessage: 'Update from Folio', ...body } as never),
      204,
    );
  await t.server.ctx.jobRunner.drain();
  return ok('getSpaceGitInfo', t.client.spaces.getSpaceGitInfo(spaceId));
}

/** The result of the space's newest job of a kind (an import's warnings are there). */
async function lastResult(spaceId: string, kind: string): Promise<{ warnings?: string[]; changed?: number }> {
  const rows = await t.server.ctx.db.query<{ result: unknown }>(
    'SELECT result FROM jobs WHERE kind = $1 AND subject = $2 ORDER BY seq DESC LIMIT 1',
    [kind, `git:${spaceId}`],
  );
  const result = rows[0]?.result;
  return (typeof result === 'string' ? JSON.parse(result) : result) as { warnings?: string[] };
}

async function write(spaceId: string, changes: unknown[]): Promise<void> {
  const cr = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
  const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
    token: t.adminToken,
    body: { changes },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await ok('mergeChangeRequest', t.client.spaces.mergeChangeRequest(spaceId, cr));
}

const pageAt = (spaceId: string, path: string) =>
  raw(t, 'GET', `/v1/spaces/${spaceId}/content/path/${path}`, { token: t.adminToken });

function find(pages: readonly RevisionPage[], title: string): RevisionPage | undefined {
  for (const p of pages) {
    if (p.title === title) return p;
    const inner = 'pages' in p && p.pages ? find(p.pages as RevisionPage[], title) : undefined;
    if (inner) return inner;
  }
  return undefined;
}

const CONFIG = `# Acme docs
root: ./

structure:
  readme: README.md    # first page
  summary: SUMMARY.md

redirects:
  # links from the old site
  old/start: guide/start.md   # keep
  'missing/page': nowhere.md
`;

describe('.gitbook.yaml redirects', () => {
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await newSpace('Redirects');
    await git.createRepo('redirects', {
      '.gitbook.yaml': CONFIG,
      'README.md': '# Welcome\n\nHello.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Start](guide/start.md)\n* [FAQ](faq.md)\n',
      'guide/start.md': '# Start\n\nBegin here.\n',
      'faq.md': '# FAQ\n\nAsk.\n',
    });
  });

  it('gives the target page the old path: GET …/content/path/<old path> answers it', async () => {
    const info = await run(spaceId, 'import', { url: withAuth('redirects'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    const res = await pageAt(spaceId, 'old/start');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ title: 'Start' });
    expect((await lastResult(spaceId, 'git-import')).warnings).toEqual([
      '.gitbook.yaml: the redirect "missing/page" leads to nowhere.md, which is no page: it is not applied',
    ]);
    expect((await pageAt(spaceId, 'missing/page')).status).toBe(404);
  });

  it('adds a redirect when Folio moves a page, the rest of .gitbook.yaml byte-identical', async () => {
    const faq = find((await ok('listPages', t.client.spaces.listPages(spaceId))).pages as RevisionPage[], 'FAQ')!;
    await write(spaceId, [{ operation: 'update_page', page: faq.id, slug: 'questions' }]);
    const info = await run(spaceId, 'export', { url: withAuth('redirects'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    const files = await git.readFiles('redirects', 'main');
    expect(files.has('faq.md')).toBe(false);
    expect(files.get('questions.md')?.toString()).toBe('# FAQ\n\nAsk.\n');
    expect(files.get('.gitbook.yaml')?.toString()).toBe(
      CONFIG.replace("'missing/page': nowhere.md\n", "'missing/page': nowhere.md\n  faq: questions.md\n"),
    );
    // A second export changes nothing.
    const head = await git.head('redirects', 'main');
    await run(spaceId, 'export', { url: withAuth('redirects'), ref: 'refs/heads/main' });
    expect(await git.head('redirects', 'main')).toBe(head);
  });
});

describe('assets changed or deleted with git', () => {
  let spaceId: string;
  const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const logo2 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9, 9]);
  const listFiles = async () => (await ok('listFiles', t.client.spaces.listFiles(spaceId))).items;

  beforeAll(async () => {
    spaceId = await newSpace('Assets');
    await git.createRepo('assets', {
      'README.md': '# Welcome\n\n![Logo](.gitbook/assets/logo.png)\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Files](files.md)\n',
      'files.md': '# Files\n\n[The old guide](.gitbook/assets/old.pdf)\n',
      '.gitbook/assets/logo.png': logo,
      '.gitbook/assets/old.pdf': Buffer.from('%PDF-old'),
    });
    const info = await run(spaceId, 'import', { url: withAuth('assets'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success' });
  });

  it('imports an asset changed with git in place: same file id, new bytes', async () => {
    const before = (await listFiles()).find((f) => f.name === 'logo.png')!;
    expect(Buffer.compare(Buffer.from(await (await fetch(before.downloadURL)).arrayBuffer()), logo)).toBe(0);
    await git.pushCommit('assets', 'main', { '.gitbook/assets/logo.png': logo2 }, 'New logo');
    const info = await run(spaceId, 'import', { url: withAuth('assets'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success' });
    const after = (await listFiles()).find((f) => f.name === 'logo.png')!;
    expect(after.id).toBe(before.id);
    expect(after.size).toBe(logo2.length);
    expect(Buffer.compare(Buffer.from(await (await fetch(after.downloadURL)).arrayBuffer()), logo2)).toBe(0);
    expect((await lastResult(spaceId, 'git-import')).warnings).toEqual([]);
  });

  it('deletes an asset deleted with git once no page links to it, and then an export makes no commit', async () => {
    expect((await listFiles()).map((f) => f.name).sort()).toEqual(['logo.png', 'old.pdf']);
    await git.pushCommit(
      'assets',
      'main',
      { '.gitbook/assets/old.pdf': null, 'files.md': '# Files\n\nNo guide any more.\n' },
      'Drop the old guide',
    );
    const info = await run(spaceId, 'import', { url: withAuth('assets'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success' });
    expect((await listFiles()).map((f) => f.name)).toEqual(['logo.png']);
    expect((await lastResult(spaceId, 'git-import')).warnings).toEqual([]);

    const head = await git.head('assets', 'main');
    const exported = await run(spaceId, 'export', { url: withAuth('assets'), ref: 'refs/heads/main' });
    expect(exported.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(await git.head('assets', 'main')).toBe(head);
    expect((await lastResult(spaceId, 'git-export')).changed).toBe(0);
  });

  it('keeps an asset deleted with git that a page still links to, and says so', async () => {
    await git.pushCommit('assets', 'main', { '.gitbook/assets/logo.png': null }, 'Drop the logo file only');
    const info = await run(spaceId, 'import', { url: withAuth('assets'), ref: 'refs/heads/main' });
    expect(info.operation).toMatchObject({ state: 'success' });
    expect((await listFiles()).map((f) => f.name)).toEqual(['logo.png']);
    expect((await lastResult(spaceId, 'git-import')).warnings).toEqual([
      'The file .gitbook/assets/logo.png was deleted in the repository but pages here still link to it: it was kept',
    ]);
  });
});
