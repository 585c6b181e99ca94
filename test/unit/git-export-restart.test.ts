import { expect, it } from 'vitest';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { restartSuite } from '../helpers/restart-suite';
import type { ServerProcess } from '../helpers/server-process';
import { crash } from '../helpers/process-crash';
import { waitFor } from '../helpers/wait';

/**
 * An export killed with its server (kill -9, compiled server on PGlite) mid-push: the push is held
 * at the Git server, so the process dies with it in flight. Started again on the same folder, the
 * job runs again, and the repository ends with exactly one new commit holding the space, the
 * space's Git sync records that commit, and the next export makes none: nothing half-written on
 * either side.
 */

const TOKEN = 'git-export-restart-token-0123456789';
let git: GitHttpServer;
let server: ServerProcess | undefined;

const suite = restartSuite({
  token: TOKEN,
  folder: 'folio-git-restart-',
  peer: async () => (git = await startGitHttpServer()),
});
const { api } = suite;

const operation = async (s: ServerProcess, spaceId: string) =>
  (await api(s, 'GET', `/spaces/${spaceId}/git/info`)).body as {
    operation?: { state: string; error?: string };
    commit?: string;
  };

it('finishes an export killed mid-push after the restart: one commit, recorded, nothing half-written', async () => {
  const dataDir = await suite.dataDir();
  server = await suite.start(dataDir);
  const orgId = (await api(server, 'POST', '/orgs', { title: 'Git restart' })).body.id as string;
  const spaceId = (await api(server, 'POST', `/orgs/${orgId}/spaces`, { title: 'Docs' })).body.id as string;
  const cr = (await api(server, 'POST', `/spaces/${spaceId}/change-requests`, {})).body.id as string;
  const wrote = await api(server, 'POST', `/spaces/${spaceId}/change-requests/${cr}/content`, {
    changes: [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.\n' } },
      { operation: 'insert_page', title: 'Guide', document: { markdown: 'Read me.\n' } },
    ],
  });
  expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
  expect((await api(server, 'POST', `/spaces/${spaceId}/change-requests/${cr}/merge`)).status).toBe(200);
  const start0 = await git.createRepo('restart', { 'CI.yml': 'ci: true\n' });

  // Hold the push at the Git server: the export is mid-push when the server dies.
  let pushes = 0;
  let release: () => void = () => undefined;
  git.beforeAnswer = (request) => {
    if (!request.path.endsWith('/git-receive-pack')) return;
    pushes++;
    if (pushes === 1) return new Promise<void>((r) => (release = r));
  };
  const url = git.repoUrl('restart').replace('http://', `http://${git.username}:${git.password}@`);
  const started = await api(server, 'POST', `/spaces/${spaceId}/git/export`, {
    url,
    ref: 'refs/heads/main',
    commitMessage: 'Export that was interrupted',
  });
  expect(started.status).toBe(204);
  await waitFor(() => pushes === 1, 20_000, 'the push to reach the Git server', 50);
  await crash(server);
  release();
  // The held push never reached Git whole: the branch did not move.
  await new Promise((r) => setTimeout(r, 300));
  expect(await git.head('restart', 'main')).toBe(start0);

  server = await suite.start(dataDir);
  const done = await waitFor(
    async () => {
      const info = await operation(server!, spaceId);
      return info.operation?.state === 'success' ? info : undefined;
    },
    30_000,
    'the export to finish after the restart',
    100,
  );
  const head = await git.head('restart', 'main');
  expect(done!.commit).toBe(head);
  const log = (await git.git('restart', ['rev-list', 'main'])).toString().trim().split('\n');
  expect(log).toHaveLength(2);
  const files = await git.readFiles('restart', 'main');
  expect(files.get('CI.yml')?.toString()).toBe('ci: true\n');
  expect(files.get('README.md')?.toString()).toContain('Hello.');
  expect([...files.values()].some((v) => v.toString().includes('Read me.'))).toBe(true);

  // Consistent on both sides: exporting again makes no commit.
  expect(
    (
      await api(server, 'POST', `/spaces/${spaceId}/git/export`, {
        url: git.repoUrl('restart'),
        ref: 'refs/heads/main',
        commitMessage: 'Again',
      })
    ).status,
  ).toBe(204);
  await waitFor(
    async () => (await operation(server!, spaceId)).operation?.state !== 'running',
    30_000,
    'the second export',
    100,
  );
  expect((await operation(server, spaceId)).operation?.state).toBe('success');
  expect(await git.head('restart', 'main')).toBe(head);
}, 120_000);
