import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cacheDirFor,
  commitAndPush,
  GitTransportError,
  readBranch,
  splitCredentials,
  type ChangeSet,
  type RepoAccess,
} from '../../sync-server/git-sync/transport';
import { parseAllowList } from '../../sync-server/outbound';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';

/**
 * The Git transport against Git's own smart-HTTP backend (test/helpers/git-http-server.ts) on
 * 127.0.0.1, checked with the git CLI. 127.0.0.1 is allowed the way an admin would allow an
 * internal Git host (FOLIO_OUTBOUND_ALLOW=127.0.0.1).
 */

let server: GitHttpServer;
let dataDir: string;
const allow = parseAllowList('127.0.0.1');
const every = Buffer.from(Array.from({ length: 256 }, (_, i) => i)); // every byte value

const initialFiles = {
  'README.md': '# Handbook\n\n* one\n* two\n',
  'SUMMARY.md': '# Summary\n\n* [Handbook](README.md)\n',
  'docs/guide/deep/page.md': 'deep\r\nwith CRLF\r\n',
  'docs/empty.md': '',
  '.gitbook/assets/logo.png': every,
  'ci/build.yml': 'steps: []\n',
};

function access(name: string, overrides: Partial<RepoAccess> = {}): RepoAccess {
  const url = server.repoUrl(name);
  return {
    url,
    ref: 'refs/heads/main',
    credentials: { username: server.username, password: server.password },
    cacheDir: cacheDirFor(dataDir, url),
    outbound: { allow },
    ...overrides,
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const change = (parent: string | null, files: Record<string, string | Uint8Array | null>): ChangeSet => ({
  parent,
  files: new Map(Object.entries(files).map(([p, c]) => [p, typeof c === 'string' ? bytes(c) : c])),
  message: 'Update from Folio\n\nTwo pages edited.',
  author: { name: 'Ada Lovelace', email: 'ada@example.com' },
});

async function failure(promise: Promise<unknown>): Promise<GitTransportError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GitTransportError);
  return err as GitTransportError;
}

/** `git ls-tree -r` of a commit: path → "mode oid", to compare whole trees entry by entry. */
async function entries(name: string, commit: string): Promise<Map<string, string>> {
  const out = (await server.git(name, ['ls-tree', '-r', '-z', commit])).toString();
  const map = new Map<string, string>();
  for (const line of out.split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t') as [string, string];
    const [mode, , oid] = meta.split(' ');
    map.set(path, `${mode} ${oid}`);
  }
  return map;
}

const pushes = () => server.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/git-receive-pack'));

beforeAll(async () => {
  server = await startGitHttpServer();
  dataDir = await mkdtemp(join(tmpdir(), 'folio-git-transport-'));
});
afterAll(async () => {
  await server?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('readBranch', () => {
  it('reads every file of the branch, bytes exact, nested folders and binaries included', async () => {
    const head = await server.createRepo('read', initialFiles);
    const { commit, files } = await readBranch(access('read'));
    expect(commit).toBe(head);
    expect([...files.keys()].sort()).toEqual(Object.keys(initialFiles).sort());
    for (const [path, content] of Object.entries(initialFiles))
      expect(Buffer.from(files.get(path)!).equals(Buffer.from(content)), path).toBe(true);
  });

  it('reads an unchanged branch from its cache, and a moved one with the new commit only', async () => {
    const before = server.requests.length;
    const again = await readBranch(access('read'));
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.service ?? r.path}`)).toEqual([
      'GET git-upload-pack',
    ]);
    const pushed = await server.pushCommit('read', 'main', { 'README.md': '# Handbook v2\n', 'docs/empty.md': null });
    const moved = await readBranch(access('read'));
    expect(moved.commit).toBe(pushed);
    expect(moved.commit).not.toBe(again.commit);
    expect(Buffer.from(moved.files.get('README.md')!).toString()).toBe('# Handbook v2\n');
    expect(moved.files.has('docs/empty.md')).toBe(false);
    expect(Buffer.from(moved.files.get('.gitbook/assets/logo.png')!).equals(every)).toBe(true);
  });

  it('moves multi-megabyte packs both ways', async () => {
    const large = randomBytes(3 * 1024 * 1024); // random: incompressible, past git's 1 MiB post buffer (chunked)
    await server.createRepo('large', { 'README.md': 'x\n' });
    await server.pushCommit('large', 'main', { 'assets/large.bin': large });
    const { commit, files } = await readBranch(access('large'));
    expect(Buffer.from(files.get('assets/large.bin')!).equals(large)).toBe(true);
    const back = randomBytes(3 * 1024 * 1024);
    await commitAndPush(access('large'), change(commit, { 'assets/back.bin': back }));
    expect((await server.readFiles('large')).get('assets/back.bin')!.equals(back)).toBe(true);
  });

  it('answers commit null for a missing branch and for an empty repository', async () => {
    expect(await readBranch(access('read', { ref: 'refs/heads/no-such-branch' }))).toEqual({
      commit: null,
      files: new Map(),
    });
    await server.createRepo('empty');
    expect(await readBranch(access('empty'))).toEqual({ commit: null, files: new Map() });
  });

  it('says a repository that does not exist is not found', async () => {
    const err = await failure(readBranch(access('no-such-repo')));
    expect(err.code).toBe('not-found');
  });

  it('bounds what it downloads (FOLIO_GIT_MAX_BYTES)', async () => {
    await server.createRepo('big', { 'noise.bin': randomBytes(256 * 1024) });
    const err = await failure(readBranch(access('big', { outbound: { allow, maxBytes: 64 * 1024 } })));
    expect(err.code).toBe('too-large');
    expect(err.message).toMatch(/FOLIO_GIT_MAX_BYTES/);
  });

  it('stops when its signal aborts', async () => {
    await server.createRepo('abort', { 'a.md': 'a' });
    const pre = await failure(readBranch(access('abort', { signal: AbortSignal.abort() })));
    expect(pre.code).toBe('aborted');
    server.stall = true;
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 150);
      const started = Date.now();
      const err = await failure(readBranch(access('abort', { signal: controller.signal })));
      expect(err.code).toBe('aborted');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.stall = false;
    }
  });
});

describe('commitAndPush', () => {
  it('pushes one commit with exactly the changes: added, changed, deleted, nothing else', async () => {
    await server.createRepo('push', initialFiles);
    const { commit: parent } = await readBranch(access('push'));
    const result = await commitAndPush(
      access('push'),
      change(parent, {
        'README.md': '# Handbook\n\n* one\n* two\n* three\n',
        'docs/new/page.md': '---\ndescription: new\n---\n# New\n',
        'docs/guide/deep/page.md': null,
        '.gitbook/assets/photo.jpg': randomBytes(3000),
        'never-existed.md': null,
      }),
    );
    expect(result).toEqual({ commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const commit = (result as { commit: string }).commit;
    expect(await server.head('push')).toBe(commit);
    expect(await server.showCommit('push', commit)).toEqual({
      parents: [parent],
      authorName: 'Ada Lovelace',
      authorEmail: 'ada@example.com',
      message: 'Update from Folio\n\nTwo pages edited.',
    });
    const before = await entries('push', parent!);
    const after = await entries('push', commit);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p));
    expect(changed.sort()).toEqual(
      ['.gitbook/assets/photo.jpg', 'README.md', 'docs/guide/deep/page.md', 'docs/new/page.md'].sort(),
    );
    const files = await server.readFiles('push');
    expect(files.get('docs/new/page.md')!.toString()).toBe('---\ndescription: new\n---\n# New\n');
    expect(files.has('docs/guide/deep/page.md')).toBe(false);
    expect(files.get('.gitbook/assets/logo.png')!.equals(every)).toBe(true);
    // The emptied folder is gone, and the repository is sound for Git itself.
    expect((await server.git('push', ['ls-tree', '-d', '-r', '--name-only', commit])).toString()).not.toContain(
      'docs/guide',
    );
    await server.git('push', ['fsck', '--strict']);
  });

  it('refuses a branch that moved since the read, and pushes nothing', async () => {
    await server.createRepo('diverge', { 'README.md': 'one\n' });
    const { commit: parent } = await readBranch(access('diverge'));
    const writer = await server.pushCommit('diverge', 'main', { 'README.md': 'a writer was here\n' });
    const before = pushes().length;
    const result = await commitAndPush(access('diverge'), change(parent, { 'README.md': 'folio\n' }));
    expect(result).toEqual({ refused: 'diverged', remote: writer });
    expect(await server.head('diverge')).toBe(writer);
    expect(pushes().length).toBe(before);
  });

  it('never overwrites a writer who pushes between the check and the update', async () => {
    await server.createRepo('race', { 'README.md': 'one\n' });
    const { commit: parent } = await readBranch(access('race'));
    let writer: string | undefined;
    // The moment the transport's pack arrives, a writer's push lands first.
    server.beforeAnswer = async (request) => {
      if (writer || request.method !== 'POST' || request.path !== '/race.git/git-receive-pack') return;
      server.beforeAnswer = undefined;
      writer = await server.pushCommit('race', 'main', { 'README.md': 'a writer was here\n' });
    };
    try {
      const result = await commitAndPush(access('race'), change(parent, { 'README.md': 'folio\n' }));
      expect(writer).toBeDefined();
      expect(result).toEqual({ refused: 'diverged', remote: writer });
      expect(await server.head('race')).toBe(writer);
    } finally {
      server.beforeAnswer = undefined;
    }
  });

  it('pushes over a moved branch with force', async () => {
    await server.createRepo('force', { 'README.md': 'one\n', 'keep.md': 'keep\n' });
    const { commit: parent } = await readBranch(access('force'));
    await server.pushCommit('force', 'main', { 'README.md': 'a writer was here\n' });
    const result = await commitAndPush(access('force'), { ...change(parent, { 'README.md': 'folio\n' }), force: true });
    const commit = (result as { commit: string }).commit;
    expect(await server.head('force')).toBe(commit);
    expect((await server.showCommit('force', commit)).parents).toEqual([parent]);
    const files = await server.readFiles('force');
    expect(files.get('README.md')!.toString()).toBe('folio\n');
    expect(files.get('keep.md')!.toString()).toBe('keep\n');
  });

  it('makes no commit for an empty change set, nor for one that writes the same bytes', async () => {
    await server.createRepo('same', { 'README.md': 'same\n' });
    const { commit: parent } = await readBranch(access('same'));
    const before = server.requests.length;
    expect(await commitAndPush(access('same'), change(parent, {}))).toEqual({ commit: parent });
    expect(server.requests.length).toBe(before);
    expect(await commitAndPush(access('same'), change(parent, { 'README.md': 'same\n', 'gone.md': null }))).toEqual({
      commit: parent,
    });
    expect(await server.head('same')).toBe(parent);
    expect(pushes().filter((r) => r.path.startsWith('/same.git'))).toEqual([]);
  });

  it('creates a new branch from parent null, and refuses parent null when the branch exists', async () => {
    await server.createRepo('fresh');
    const created = await commitAndPush(access('fresh'), change(null, { 'README.md': '# New\n' }));
    const commit = (created as { commit: string }).commit;
    expect(await server.head('fresh')).toBe(commit);
    expect((await server.showCommit('fresh', commit)).parents).toEqual([]);
    expect([...(await server.readFiles('fresh')).keys()]).toEqual(['README.md']);
    expect(await commitAndPush(access('fresh'), change(null, { 'other.md': 'x' }))).toEqual({
      refused: 'diverged',
      remote: commit,
    });
  });

  it('pushes from a shallow cache of a longer history, and from an empty cache', async () => {
    await server.createRepo('history', { 'README.md': 'v1\n', 'other.md': 'o\n' });
    await server.pushCommit('history', 'main', { 'README.md': 'v2\n' });
    const v3 = await server.pushCommit('history', 'main', { 'README.md': 'v3\n' });
    const { commit: parent } = await readBranch(access('history'));
    expect(parent).toBe(v3);
    const first = (await commitAndPush(access('history'), change(parent, { 'README.md': 'v4\n' }))) as {
      commit: string;
    };
    expect((await server.showCommit('history', first.commit)).parents).toEqual([v3]);
    // A writer moves the branch; Folio forces its own commit over it (built on what it read).
    await server.pushCommit('history', 'main', { 'other.md': 'writer\n' });
    const forced = (await commitAndPush(access('history'), {
      ...change(first.commit, { 'README.md': 'v5\n' }),
      force: true,
    })) as { commit: string };
    expect((await server.showCommit('history', forced.commit)).parents).toEqual([first.commit]);
    expect((await server.readFiles('history')).get('other.md')!.toString()).toBe('o\n');
    // Another data folder (another process, a wiped cache): the parent is fetched first.
    const elsewhere = await mkdtemp(join(tmpdir(), 'folio-git-transport-'));
    try {
      const cold = (await commitAndPush(
        access('history', { cacheDir: cacheDirFor(elsewhere, server.repoUrl('history')) }),
        change(forced.commit, { 'new.md': 'n\n' }),
      )) as { commit: string };
      expect((await server.showCommit('history', cold.commit)).parents).toEqual([forced.commit]);
      // A parent the branch no longer holds is a divergence, told with where the branch is.
      const stale = await commitAndPush(
        access('history', { cacheDir: cacheDirFor(elsewhere, `${server.repoUrl('history')}#other`) }),
        change(v3, { 'x.md': 'x' }),
      );
      expect(stale).toEqual({ refused: 'diverged', remote: cold.commit });
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
    await server.git('history', ['fsck', '--strict']);
  });

  it('refuses paths a repository must not hold before pushing anything', async () => {
    await server.createRepo('paths', { 'README.md': 'x\n' });
    const { commit: parent } = await readBranch(access('paths'));
    const before = server.requests.length;
    for (const path of ['../escape.md', '.git/config', 'docs/.GIT/hooks/x', 'a//b.md', '/abs.md', 'a\\b.md', ''])
      expect((await failure(commitAndPush(access('paths'), change(parent, { [path]: 'x' })))).code, path).toBe(
        'invalid-path',
      );
    expect(server.requests.length).toBe(before);
    const underFile = await failure(commitAndPush(access('paths'), change(parent, { 'README.md/x.md': 'x' })));
    expect(underFile.message).toMatch(/"README.md" is a file/);
    expect(await server.head('paths')).toBe(parent);
  });
});

describe('credentials and the address policy', () => {
  const wrong = 'hunter2-Wr0ng-s3cret-value';

  it('says a wrong password is an auth failure, and never repeats the password', async () => {
    await server.createRepo('private', { 'README.md': 'secret docs\n' });
    const bad = { credentials: { username: 'writer', password: wrong } };
    const read = await failure(readBranch(access('private', bad)));
    const { url, credentials } = splitCredentials(
      `http://writer:${encodeURIComponent(wrong)}@127.0.0.1:${new URL(server.origin).port}/private.git`,
    );
    const pushed = await failure(
      commitAndPush(access('private', { url, credentials: credentials! }), change(null, { 'x.md': 'x' })),
    );
    const basic = Buffer.from(`writer:${wrong}`).toString('base64');
    for (const err of [read, pushed]) {
      expect(err.code).toBe('auth');
      expect(err.message).toMatch(/refused the credentials/);
      for (const text of [err.message, String(err), err.stack ?? '', JSON.stringify(err)]) {
        expect(text).not.toContain(wrong);
        expect(text).not.toContain(basic);
      }
    }
    const none = await failure(readBranch(access('private', { credentials: undefined })));
    expect(none.code).toBe('auth');
    expect(none.message).toMatch(/needs credentials/);
  });

  it('splits credentials off a URL', () => {
    expect(splitCredentials('https://x-token:p%40ss%3Aword@git.example.com/o/r.git')).toEqual({
      url: 'https://git.example.com/o/r.git',
      credentials: { username: 'x-token', password: 'p@ss:word' },
    });
    expect(splitCredentials('https://git.example.com/o/r.git')).toEqual({ url: 'https://git.example.com/o/r.git' });
  });

  it('refuses a repository on an address outside the allow-list, without a request', async () => {
    const before = server.requests.length;
    const url = `http://127.0.0.2:${new URL(server.origin).port}/read.git`;
    for (const operation of [
      readBranch(access('read', { url })),
      commitAndPush(access('read', { url }), change(null, { 'x.md': 'x' })),
    ]) {
      const err = await failure(operation);
      expect(err.code).toBe('refused-address');
      expect(err.message).toMatch(/127\.0\.0\.2.*loopback/);
    }
    expect(server.requests.length).toBe(before);
  });

  it('says a web page is not a Git repository, and a failing host is a network error', async () => {
    const web = http.createServer((req, res) => {
      if (req.url?.startsWith('/broken')) res.writeHead(502).end('bad gateway');
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>Welcome</h1>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
      const page = await failure(readBranch(access('read', { url: `${origin}/page` })));
      expect(page.code).toBe('protocol');
      expect(page.message).toMatch(/did not answer as a Git server/);
      const broken = await failure(readBranch(access('read', { url: `${origin}/broken.git` })));
      expect(broken).toMatchObject({ code: 'network', message: expect.stringMatching(/answered HTTP 502/) });
    } finally {
      web.closeAllConnections();
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it('refuses what is not an http(s) URL', async () => {
    expect((await failure(readBranch(access('read', { url: 'ssh://git@host/o/r.git' })))).code).toBe('invalid-url');
    const err = await failure(readBranch(access('read', { url: `https://u:${wrong}@bad host/` })));
    expect(err.code).toBe('invalid-url');
    expect(err.message).not.toContain(wrong);
  });
});
