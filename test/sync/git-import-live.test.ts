import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { raw } from '../helpers/api';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { startTestServer, type TestServer } from '../helpers/server';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * A Git import while a writer types in the same space over y-websocket (the stock provider): the
 * repository's edits of another line of the page being typed in, and of another page, land, and
 * every keystroke stays — then the next export carries both to the repository.
 */

let t: TestServer;
let git: GitHttpServer;
const clients = new SyncClients();

beforeAll(async () => {
  git = await startGitHttpServer();
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
}, 60_000);
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
  await git?.close();
});

async function post(path: string, body: unknown) {
  const res = await raw(t, 'POST', path, { token: t.adminToken, body });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body as Record<string, unknown>;
}

async function operation(spaceId: string) {
  const info = (await raw(t, 'GET', `/v1/spaces/${spaceId}/git/info`, { token: t.adminToken })).body as {
    operation: { state: string; error?: string };
  };
  return info.operation;
}

describe('a Git import during live typing', () => {
  it('keeps every keystroke of a writer typing in the page the repository changed', async () => {
    const orgId = (await t.client.orgs.createOrganization({ title: 'Live Git' })).data.id;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
    const cr = (await t.client.spaces.createChangeRequest(spaceId, {})).data.id;
    const written = await post(`/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Alpha', document: { markdown: 'Line one.\n\nLine two.\n\nLine three.\n' } },
        { operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta body.\n' } },
      ],
    });
    const [alpha, beta] = (written.changes as { page: { id: string } }[]).map((c) => c.page.id);
    await t.client.spaces.mergeChangeRequest(spaceId, cr);
    await git.createRepo('live');
    const url = git.repoUrl('live').replace('http://', `http://${git.username}:${git.password}@`);
    await post(`/v1/spaces/${spaceId}/git/export`, { url, ref: 'refs/heads/main', commitMessage: 'Start' });
    await t.server.ctx.jobRunner.drain();
    expect(await operation(spaceId)).toMatchObject({ state: 'success' });

    // Someone edits the third line of Alpha and Beta's body in Git.
    const files = await git.readFiles('live', 'main');
    const alphaFile = [...files.entries()].find(([, v]) => v.toString().includes('Line three.'))!;
    const betaFile = [...files.entries()].find(([, v]) => v.toString().includes('Beta body.'))!;
    await git.pushCommit('live', 'main', {
      [alphaFile[0]]: alphaFile[1].toString().replace('Line three.', 'Line three, edited in Git.'),
      [betaFile[0]]: betaFile[1].toString().replace('Beta body.', 'Beta body, edited in Git.'),
    });

    // A writer types at the end of Alpha's first line, before, during and after the import.
    const client = clients.connect(t.url, { spaceId, kind: 'content' });
    await synced(client);
    const live = new ContentDoc(client.doc);
    const body = live.pageBody(alpha!);
    let typed = 0;
    const type = () => {
      const at = body.toString().indexOf('\n');
      body.insert(at, 'x');
      typed++;
    };
    for (let i = 0; i < 20; i++) type();
    const typing = setInterval(type, 3);
    await post(`/v1/spaces/${spaceId}/git/import`, { url: git.repoUrl('live'), ref: 'refs/heads/main' });
    await t.server.ctx.jobRunner.drain();
    for (let i = 0; i < 20; i++) type();
    clearInterval(typing);
    expect(await operation(spaceId)).toMatchObject({ state: 'success' });

    await waitFor(() => live.getMarkdown(alpha!).includes('edited in Git'), 10_000, 'the import reaches the writer');
    const text = live.getMarkdown(alpha!);
    expect(text.split('\n')[0]).toBe(`Line one.${'x'.repeat(typed)}`);
    expect(text).toContain('Line three, edited in Git.');
    expect(live.getMarkdown(beta!)).toContain('Beta body, edited in Git.');
    // The server holds the same text: nothing the writer typed was lost on its side either.
    await waitFor(
      async () =>
        (await t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (d) => new ContentDoc(d).getMarkdown(alpha!))) ===
        text,
      10_000,
      'the server has the writer’s text',
    );

    // The next export carries the writer's line and keeps Git's.
    await t.server.ctx.snapshots.revise(spaceId);
    await post(`/v1/spaces/${spaceId}/git/export`, {
      url: git.repoUrl('live'),
      ref: 'refs/heads/main',
      commitMessage: 'Typed',
    });
    await t.server.ctx.jobRunner.drain();
    expect(await operation(spaceId)).toMatchObject({ state: 'success' });
    const after = (await git.readFiles('live', 'main')).get(alphaFile[0])!.toString();
    expect(after).toContain(`Line one.${'x'.repeat(typed)}`);
    expect(after).toContain('Line three, edited in Git.');
  });
});
