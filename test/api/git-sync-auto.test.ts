import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, ok, raw, type RawResponse } from '../helpers/api';
import { startGitHttpServer, type GitHttpServer } from '../helpers/git-http-server';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Git sync that keeps itself up to date (issue 30, point 6), against a real smart-HTTP server
 * (`git http-backend` with basic auth): the settings (GET and PATCH `/v1/spaces/{id}/git/settings`),
 * the webhook a Git host calls on a push, the export queued by every merge, and polling, each
 * checked with the git CLI or through the imported pages. Disabled settings queue nothing, every
 * refusal is in the error shape, and the webhook's secret never reaches a log line.
 */

const ANONYMOUS_LIMIT = 6;

let t: TestServer;
let git: GitHttpServer;
let orgId: string;
const logLines: string[] = [];

beforeAll(async () => {
  git = await startGitHttpServer();
  t = await startTestServer(
    {
      FOLIO_OUTBOUND_ALLOW: '127.0.0.1',
      // Each webhook call comes from an address of its own (X-Forwarded-For), but the rate-limit test's.
      FOLIO_TRUST_PROXY: 'loopback',
      FOLIO_RATE_LIMIT_ANONYMOUS: String(ANONYMOUS_LIMIT),
    },
    { logger: { level: 'debug' }, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  orgId = (await t.client.orgs.createOrganization({ title: 'Auto Git Org' })).data.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await git?.close();
});

const withAuth = (name: string) => git.repoUrl(name).replace('http://', `http://${git.username}:${git.password}@`);

let addressCounter = 0;
const newAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

interface Settings {
  exportOnMerge: boolean;
  importOnPush: boolean;
  pollMinutes: number | null;
  webhookUrl?: string | null;
  lastPolledAt: string | null;
}

const settingsPath = (spaceId: string) => `/v1/spaces/${spaceId}/git/settings`;

async function getSettings(spaceId: string, token = t.adminToken): Promise<Settings> {
  const res = await raw(t, 'GET', settingsPath(spaceId), { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Settings;
}

async function patchSettings(spaceId: string, body: Record<string, unknown>, token = t.adminToken): Promise<Settings> {
  const res = await raw(t, 'PATCH', settingsPath(spaceId), { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Settings;
}

/** Calls a webhook URL as a Git host would, from an address of its own. */
function callHook(
  url: string,
  body?: unknown,
  options: { contentType?: string; from?: string } = {},
): Promise<RawResponse> {
  const path = new URL(url).pathname;
  const headers: Record<string, string> = { 'x-forwarded-for': options.from ?? newAddress() };
  if (options.contentType) headers['content-type'] = options.contentType;
  if (body === undefined) return raw(t, 'POST', path, { headers });
  if (typeof body === 'string') return raw(t, 'POST', path, { headers, rawBody: body });
  return raw(t, 'POST', path, { headers, body });
}

/** How many Git jobs the space has had (queued, run or failed). */
async function gitJobs(spaceId: string): Promise<number> {
  const [row] = await t.server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE subject = $1', [
    `git:${spaceId}`,
  ]);
  return row!.n;
}

/** A space synced with a new repository holding one page (imported once, as a first import would). */
async function syncedSpace(name: string): Promise<string> {
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: name })).data.id;
  await git.createRepo(name, { 'README.md': '# Home\n\nHello.\n' });
  const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/git/import`, {
    token: t.adminToken,
    body: { url: withAuth(name), ref: 'refs/heads/main', force: true },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  await t.server.ctx.jobRunner.drain();
  const info = await ok('getSpaceGitInfo', t.client.spaces.getSpaceGitInfo(spaceId));
  expect(info.operation, JSON.stringify(info)).toMatchObject({ state: 'success' });
  return spaceId;
}

/** The markdown of the space's first page (README.md's). */
async function homeText(spaceId: string): Promise<string> {
  const [first] = (await ok('listPages', t.client.spaces.listPages(spaceId))).pages;
  const page = await ok('getPageById', t.client.spaces.getPageById(spaceId, first!.id));
  return (page as { markdown: string }).markdown;
}

/** Pushes a new text of README.md, as a writer would. */
const pushHome = (name: string, text: string) => git.pushCommit(name, 'main', { 'README.md': `# Home\n\n${text}\n` });

describe('settings', () => {
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await syncedSpace('settings');
  });

  it('answers 404 for a space without a Git sync', async () => {
    const bare = (await t.client.orgs.createSpace(orgId, { title: 'No sync' })).data.id;
    expectError(await raw(t, 'GET', settingsPath(bare), { token: t.adminToken }), 404);
    expectError(await raw(t, 'PATCH', settingsPath(bare), { token: t.adminToken, body: { exportOnMerge: true } }), 404);
  });

  it('starts with everything off, and makes the webhook URL when importOnPush is first enabled', async () => {
    expect(await getSettings(spaceId)).toEqual({
      exportOnMerge: false,
      importOnPush: false,
      pollMinutes: null,
      webhookUrl: null,
      lastPolledAt: null,
    });
    const on = await patchSettings(spaceId, { importOnPush: true, exportOnMerge: true, pollMinutes: 30 });
    expect(on).toMatchObject({ importOnPush: true, exportOnMerge: true, pollMinutes: 30 });
    expect(on.webhookUrl).toMatch(new RegExp(`^${t.url}/v1/git/hooks/${spaceId}/[A-Za-z0-9_-]{43}$`));
    // Admins read it again; turning importOnPush off and on keeps it.
    expect((await getSettings(spaceId)).webhookUrl).toBe(on.webhookUrl);
    await patchSettings(spaceId, { importOnPush: false });
    expect((await patchSettings(spaceId, { importOnPush: true })).webhookUrl).toBe(on.webhookUrl);
    // Only the fields given change; null stops polling.
    expect(await patchSettings(spaceId, { pollMinutes: null })).toMatchObject({
      exportOnMerge: true,
      importOnPush: true,
      pollMinutes: null,
    });
    // Stored sealed: the database holds no usable secret.
    const secret = on.webhookUrl!.split('/').pop()!;
    const [row] = await t.server.ctx.db.query<{ webhook_secret: string }>(
      'SELECT webhook_secret FROM space_git_sync WHERE space_id = $1',
      [spaceId],
    );
    expect(row!.webhook_secret).toMatch(/^v1:/);
    expect(row!.webhook_secret).not.toContain(secret);
  });

  it('shows readers the settings without the webhook URL, and lets only who may sync change them', async () => {
    await patchSettings(spaceId, { importOnPush: true });
    const reader = await newMember(t, orgId, 'read');
    const seen = await getSettings(spaceId, reader.token);
    expect(seen).toMatchObject({ importOnPush: true });
    expect('webhookUrl' in seen).toBe(false);
    expectError(
      await raw(t, 'PATCH', settingsPath(spaceId), { token: reader.token, body: { importOnPush: false } }),
      403,
    );
    const editor = await newMember(t, orgId, 'edit');
    expect('webhookUrl' in (await getSettings(spaceId, editor.token))).toBe(false);
    expectError(await raw(t, 'PATCH', settingsPath(spaceId), { token: editor.token, body: { pollMinutes: 5 } }), 403);
    const outsider = await newMember(
      t,
      (await t.client.orgs.createOrganization({ title: 'Elsewhere' })).data.id,
      'admin',
    );
    expectError(await raw(t, 'GET', settingsPath(spaceId), { token: outsider.token }), 404);
    expectError(await raw(t, 'GET', settingsPath(spaceId)), 401);
    expect((await getSettings(spaceId)).importOnPush).toBe(true);
  });

  it('refuses bad input with a 400 in the error shape, and changes nothing', async () => {
    const before = await getSettings(spaceId);
    for (const body of [
      { pollMinutes: 4 },
      { pollMinutes: 1441 },
      { pollMinutes: 7.5 },
      { pollMinutes: 'ten' },
      { exportOnMerge: 'yes' },
      { importOnPush: null },
      { rotateWebhookSecret: false },
      { webhookUrl: 'https://example.com/' },
      { unknown: 1 },
    ]) {
      const res = await raw(t, 'PATCH', settingsPath(spaceId), { token: t.adminToken, body });
      expectError(res, 400);
    }
    expectError(await raw(t, 'PATCH', settingsPath(spaceId), { token: t.adminToken, rawBody: '{"pollMinutes":' }), 400);
    expect(await getSettings(spaceId)).toEqual(before);
  });
});

describe('webhook', () => {
  const name = 'hooked';
  let spaceId: string;
  let hook: string;
  beforeAll(async () => {
    spaceId = await syncedSpace(name);
    hook = (await patchSettings(spaceId, { importOnPush: true })).webhookUrl!;
  });

  it('imports a pushed change when the push is announced (GitHub’s JSON)', async () => {
    await pushHome(name, 'Pushed once.');
    const res = await callHook(hook, { ref: 'refs/heads/main', after: 'abc', repository: { name } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ queued: true });
    await t.server.ctx.jobRunner.drain();
    expect(await homeText(spaceId)).toContain('Pushed once.');
    const info = await ok('getSpaceGitInfo', t.client.spaces.getSpaceGitInfo(spaceId));
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
  });

  it('takes GitHub’s form-encoded deliveries, Bitbucket’s pushes and a bare POST', async () => {
    await pushHome(name, 'Pushed twice.');
    const form = `payload=${encodeURIComponent(JSON.stringify({ ref: 'refs/heads/main' }))}`;
    const res = await callHook(hook, form, { contentType: 'application/x-www-form-urlencoded' });
    expect(res.body).toEqual({ queued: true });
    await t.server.ctx.jobRunner.drain();
    expect(await homeText(spaceId)).toContain('Pushed twice.');
    const bitbucket = { push: { changes: [{ new: { type: 'branch', name: 'main' }, old: null }] } };
    expect((await callHook(hook, bitbucket)).body).toEqual({ queued: true });
    expect((await callHook(hook)).body).toEqual({ queued: true });
    expect((await callHook(hook, 'not json', { contentType: 'text/plain' })).status).toBe(202);
    await t.server.ctx.jobRunner.drain();
  });

  it('queues nothing for a push to another branch or a tag', async () => {
    const before = await gitJobs(spaceId);
    for (const body of [
      { ref: 'refs/heads/feature' },
      { ref: 'refs/tags/v1.0' },
      { push: { changes: [{ new: { type: 'branch', name: 'feature' } }] } },
    ]) {
      const res = await callHook(hook, body);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ queued: false, reason: expect.stringMatching(/not to the synced branch/) });
    }
    const form = `payload=${encodeURIComponent(JSON.stringify({ ref: 'refs/heads/feature' }))}`;
    expect((await callHook(hook, form, { contentType: 'application/x-www-form-urlencoded' })).body).toMatchObject({
      queued: false,
    });
    expect(await gitJobs(spaceId)).toBe(before);
  });

  it('does not queue an import again while one is still waiting to start', async () => {
    const runner = t.server.ctx.jobRunner;
    const before = await gitJobs(spaceId);
    // Stopped, the runner claims nothing: the first import stays waiting.
    await runner.stop();
    try {
      expect((await callHook(hook, { ref: 'refs/heads/main' })).body).toEqual({ queued: true });
      expect((await callHook(hook, { ref: 'main' })).body).toEqual({ queued: true });
      expect(await gitJobs(spaceId)).toBe(before + 1);
      await runner.drain();
    } finally {
      await runner.start();
    }
    // Running (or done), an import may have read the branch before the push: a new announcement queues another.
    expect((await callHook(hook, { ref: 'refs/heads/main' })).body).toEqual({ queued: true });
    await runner.drain();
    expect(await gitJobs(spaceId)).toBe(before + 2);
  });

  it('answers 404, and queues nothing, for a wrong secret, an unknown space or importOnPush off', async () => {
    const before = await gitJobs(spaceId);
    const secret = hook.split('/').pop()!;
    const wrong = [
      hook.replace(/[^/]+$/, 'A'.repeat(43)),
      hook.replace(/[^/]+$/, `${secret}x`),
      hook.replace(/[^/]+$/, 'short'),
      hook.replace(`/hooks/${spaceId}/`, '/hooks/unknownspace/'),
    ];
    for (const url of wrong) expectError(await callHook(url, { ref: 'refs/heads/main' }), 404);
    await patchSettings(spaceId, { importOnPush: false });
    expectError(await callHook(hook, { ref: 'refs/heads/main' }), 404);
    await patchSettings(spaceId, { importOnPush: true });
    expect(await gitJobs(spaceId)).toBe(before);
  });

  it('stops answering the old URL once the secret is rotated', async () => {
    const rotated = (await patchSettings(spaceId, { rotateWebhookSecret: true })).webhookUrl!;
    expect(rotated).not.toBe(hook);
    expectError(await callHook(hook, { ref: 'refs/heads/main' }), 404);
    await pushHome(name, 'After rotation.');
    expect((await callHook(rotated, { ref: 'refs/heads/main' })).body).toEqual({ queued: true });
    await t.server.ctx.jobRunner.drain();
    expect(await homeText(spaceId)).toContain('After rotation.');
    hook = rotated;
  });

  it('pauses when who saved the settings can no longer sync the space', async () => {
    const admin = await newMember(t, orgId, 'admin');
    const url = (await patchSettings(spaceId, { importOnPush: true }, admin.token)).webhookUrl!;
    await ok('removeMemberFromOrganizationById', t.client.orgs.removeMemberFromOrganizationById(orgId, admin.id), 204);
    const before = await gitJobs(spaceId);
    const res = await callHook(url, { ref: 'refs/heads/main' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ queued: false, reason: expect.stringMatching(/save them again/) });
    expect(await gitJobs(spaceId)).toBe(before);
    // Saved again by an admin: imports resume.
    await patchSettings(spaceId, {});
    expect((await callHook(url, { ref: 'refs/heads/main' })).body).toEqual({ queued: true });
    await t.server.ctx.jobRunner.drain();
  });

  it('counts calls per address like other public routes (429 past the limit)', async () => {
    const from = newAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= ANONYMOUS_LIMIT; i++)
      statuses.push((await callHook(hook.replace(/[^/]+$/, 'wrong'), {}, { from })).status);
    expect(statuses.slice(0, ANONYMOUS_LIMIT).every((s) => s === 404)).toBe(true);
    expect(statuses[ANONYMOUS_LIMIT]).toBe(429);
  });

  it('never writes a secret in a log line', () => {
    const hookLines = logLines.filter((l) => l.includes('/git/hooks/'));
    expect(hookLines.length).toBeGreaterThan(0);
    expect(hookLines.every((l) => /\/git\/hooks\/[^/"]+\/\[REDACTED\]/.test(l))).toBe(true);
    // Every secret this suite made (the rotated ones too): 43 URL-safe characters after the space id.
    expect(logLines.filter((l) => /\/git\/hooks\/[^/"]+\/[A-Za-z0-9_-]{43}/.test(l))).toEqual([]);
  });
});

describe('export after every merge', () => {
  const name = 'merged';
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await syncedSpace(name);
  });

  /** Adds a page through a merged change request with this subject; the change request's number. */
  async function mergeNewPage(subject: string, title: string): Promise<number> {
    const cr = await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, { subject }), 201);
    const res = await raw(t, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      token: t.adminToken,
      body: { changes: [{ operation: 'insert_page', title, document: { markdown: `About ${title}.\n` } }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await ok('mergeChangeRequest', t.client.spaces.mergeChangeRequest(spaceId, cr.id));
    return cr.number;
  }

  it('queues nothing while exportOnMerge is off', async () => {
    const head = await git.head(name);
    const jobs = await gitJobs(spaceId);
    await mergeNewPage('Quiet change', 'Quiet');
    await t.server.ctx.jobRunner.drain();
    expect(await gitJobs(spaceId)).toBe(jobs);
    expect(await git.head(name)).toBe(head);
  });

  it('exports the merged content as a commit naming the change request, authored by who merged', async () => {
    await patchSettings(spaceId, { exportOnMerge: true });
    const head = await git.head(name);
    const number = await mergeNewPage('Add the install guide', 'Install');
    await t.server.ctx.jobRunner.drain();
    const commit = await git.head(name);
    expect(commit).not.toBe(head);
    const shown = await git.showCommit(name, commit!);
    expect(shown.message).toBe(`Add the install guide (change request #${number})`);
    expect(shown.parents).toEqual([head]);
    const merger = (await raw(t, 'GET', '/v1/user', { token: t.adminToken })).body as { displayName: string };
    expect(shown.authorName).toBe(merger.displayName);
    const files = await git.readFiles(name);
    expect([...files.values()].some((v) => v.toString().includes('About Install.'))).toBe(true);
    // The page merged while exportOnMerge was off goes with it: the export writes the whole space.
    expect([...files.values()].some((v) => v.toString().includes('About Quiet.'))).toBe(true);
    const info = await ok('getSpaceGitInfo', t.client.spaces.getSpaceGitInfo(spaceId));
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
  });

  it('never fails the merge when the export cannot be queued', async () => {
    const jobRunner = t.server.ctx.jobRunner;
    const enqueue = jobRunner.enqueue.bind(jobRunner);
    jobRunner.enqueue = () => Promise.reject(new Error('queue unavailable'));
    try {
      await mergeNewPage('Merged anyway', 'Anyway');
    } finally {
      jobRunner.enqueue = enqueue;
    }
    expect(logLines.some((l) => l.includes('the export after a merge could not be queued'))).toBe(true);
    const page = await ok('getPageByPath', t.client.spaces.getPageByPath(spaceId, 'anyway'));
    expect(page).toMatchObject({ title: 'Anyway' });
  });
});

describe('polling', () => {
  const name = 'polled';
  let spaceId: string;
  beforeAll(async () => {
    spaceId = await syncedSpace(name);
  });

  /** Runs the poller once (as its timer would) and the jobs it queued. */
  async function poll(): Promise<void> {
    expect(await t.server.gitPoller.runOnce()).not.toBeNull();
    await t.server.ctx.jobRunner.drain();
  }

  it('queues nothing while pollMinutes is null', async () => {
    await pushHome(name, 'Not polled.');
    const jobs = await gitJobs(spaceId);
    t.clock.advance(60 * 60_000);
    await poll();
    expect(await gitJobs(spaceId)).toBe(jobs);
    expect(await homeText(spaceId)).not.toContain('Not polled.');
  });

  it('imports a pushed change when a poll is due, and not before', async () => {
    const set = await patchSettings(spaceId, { pollMinutes: 15 });
    expect(set.lastPolledAt).toBeNull();
    // Never polled: due at once.
    await poll();
    expect(await homeText(spaceId)).toContain('Not polled.');
    const polledAt = (await getSettings(spaceId)).lastPolledAt;
    expect(polledAt).not.toBeNull();
    await pushHome(name, 'Polled later.');
    const jobs = await gitJobs(spaceId);
    t.clock.advance(14 * 60_000);
    await poll();
    expect(await gitJobs(spaceId)).toBe(jobs);
    expect(await homeText(spaceId)).not.toContain('Polled later.');
    t.clock.advance(60_000);
    await poll();
    expect(await gitJobs(spaceId)).toBe(jobs + 1);
    expect(await homeText(spaceId)).toContain('Polled later.');
    expect(Date.parse((await getSettings(spaceId)).lastPolledAt!)).toBeGreaterThan(Date.parse(polledAt!));
  });

  it('stops when pollMinutes is set back to null', async () => {
    await patchSettings(spaceId, { pollMinutes: null });
    const jobs = await gitJobs(spaceId);
    t.clock.advance(60 * 60_000);
    await poll();
    expect(await gitJobs(spaceId)).toBe(jobs);
  });
});
