import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { waitFor } from '../helpers/wait';

/**
 * Git sync in the compiled server, as `npm start` runs it (isomorphic-git and the layout codec are
 * loaded on the first sync, from the bundle): an export to a real smart-HTTP server, an edit pushed
 * with git and imported, and a round trip that makes no commit.
 */

let server: CompiledServer;
let git: GitHttpServer;

beforeAll(async () => {
  git = await startGitHttpServer();
  server = await startCompiledServer({ env: { FOLIO_OUTBOUND_ALLOW: '127.0.0.1' } });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await git?.close();
});

const api = (method: string, path: string, body?: unknown) => adminCall(server, method, path, body);

/** Starts an operation and waits for it to end (the compiled server's job runner polls on its own). */
async function sync(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>) {
  const started = await api('POST', `/spaces/${spaceId}/git/${direction}`, body);
  expect(started.status, JSON.stringify(started.body)).toBe(204);
  let info: Record<string, unknown> | undefined;
  await waitFor(async () => {
    info = (await api('GET', `/spaces/${spaceId}/git/info`)).body;
    return (info?.operation as { state?: string } | undefined)?.state !== 'running';
  }, 30_000);
  return info!.operation as { state: string; error?: string };
}

describe('Git sync in the compiled server', () => {
  it('exports, imports a pushed edit, and makes no commit on a round trip', async () => {
    const org = (await server.client.orgs.createOrganization({ title: 'Git Org' })).data.id;
    const spaceId = (await server.client.orgs.createSpace(org, { title: 'Docs' })).data.id;
    const cr = (await server.client.spaces.createChangeRequest(spaceId, {})).data.id;
    const wrote = await api('POST', `/spaces/${spaceId}/change-requests/${cr}/content`, {
      changes: [
        { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello from Folio.\n' } },
        { operation: 'insert_page', title: 'Install', document: { markdown: '* step one\n* step two\n' } },
      ],
    });
    expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
    await server.client.spaces.mergeChangeRequest(spaceId, cr);
    await git.createRepo('docs');
    const url = git.repoUrl('docs').replace('http://', `http://${git.username}:${git.password}@`);

    expect(await sync(spaceId, 'export', { url, ref: 'refs/heads/main', commitMessage: 'From Folio' })).toMatchObject({
      state: 'success',
    });
    const files = await git.readFiles('docs', 'main');
    expect(files.get('README.md')?.toString()).toContain('Hello from Folio.');
    const install = [...files.entries()].find(([, v]) => v.toString().includes('step one'))!;
    expect(files.get('SUMMARY.md')?.toString()).toContain('Install');

    await git.pushCommit('docs', 'main', {
      [install[0]]: install[1].toString().replace('* step two', '* step two\n* step three'),
    });
    expect(await sync(spaceId, 'import', { url: git.repoUrl('docs'), ref: 'refs/heads/main' })).toMatchObject({
      state: 'success',
    });
    const page = await api('GET', `/spaces/${spaceId}/content/path/install`);
    expect(page.body?.markdown).toContain('* step three');

    const head = await git.head('docs', 'main');
    expect(
      await sync(spaceId, 'export', { url: git.repoUrl('docs'), ref: 'refs/heads/main', commitMessage: 'Again' }),
    ).toMatchObject({
      state: 'success',
    });
    expect(await git.head('docs', 'main')).toBe(head);
  });
});
