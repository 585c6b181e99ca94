import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, newUser, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';
import { SyncClients, synced } from '../helpers/sync-clients';
import { eventually } from '../helpers/wait';

/**
 * A space's history: the Folio extension GET /spaces/{id}/revisions (newest
 * first, authors, changed pages, page filter, paging) and GitBook's
 * getRevisionSemanticChanges (checked against GitBook's own schema).
 */
let t: TestServer;
let spaceId: string;
let orgId: string;
let introId: string;
let extraId: string;
let adminId: string;
let writer: TestUser;
let reader: TestUser;
const revs: Record<string, string> = {};
const clients = new SyncClients();

interface Item {
  id: string;
  type: string;
  parents: string[];
  createdAt: string;
  author?: { id: string; displayName: string; email?: string; object: string };
  pages: { id: string; title: string; change: string }[];
}
interface ListBody {
  items: Item[];
  count: number;
  next?: { page: string };
}

const edit = (fn: (c: ContentDoc) => void) =>
  t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => fn(new ContentDoc(doc)));
/** Cuts a revision now, one second after the previous one (the history is ordered by time). */
async function revise(name: string, userId?: string) {
  t.clock.advance(1000);
  const id = await t.server.ctx.snapshots.revise(spaceId, { userId });
  expect(id, `revision ${name}`).toBeDefined();
  revs[name] = id!;
}
/**
 * GitBook's schema of a page_edited change is a oneOf of three attribute
 * schemas that all accept `{document: …}` (none closes its properties), so no
 * page_edited entry can ever pass it. Everything else is checked against the
 * spec; page_edited entries against the document-attributes shape by hand.
 */
function assertSemanticChanges(body: unknown): void {
  const { changes, ...rest } = body as { changes: { type: string; page: object; attributes?: object }[] };
  const edited = changes.filter((c) => c.type === 'page_edited');
  assertMatchesGitBook('getRevisionSemanticChanges', 200, {
    ...rest,
    changes: changes.filter((c) => !edited.includes(c)),
  });
  for (const c of edited) {
    expect(c.page).toMatchObject({ id: expect.any(String), type: expect.any(String), title: expect.any(String) });
    expect(Object.keys(c.attributes ?? {}).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(c.attributes ?? {})) {
      expect(['title', 'description', 'slug', 'document', 'emoji']).toContain(key);
      for (const side of Object.values(value as object)) expect(typeof side).toBe('string');
    }
  }
}
const list = async (query = '', token = t.adminToken) =>
  raw(t, 'GET', `/v1/spaces/${spaceId}/revisions${query}`, { token });

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'History Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  adminId = (await t.client.user.getAuthenticatedUser()).data.id;
  writer = await newMember(t, orgId, 'edit', 'History Writer');
  reader = await newMember(t, orgId, 'read', 'History Reader');
  await edit((c) => {
    introId = c.createPage({ title: 'Introduction', markdown: 'Hello world.\n' });
  });
  await revise('created', adminId);
  await edit((c) => {
    c.setMarkdown(introId, 'Hello brave new world.\n');
    extraId = c.createPage({ title: 'Extra', markdown: 'More.\n' });
  });
  await revise('edited');
  await edit((c) => void c.deletePage(extraId));
  await revise('deleted');
});
afterAll(async () => {
  clients.destroyAll();
  await t?.close();
});

describe('GET /spaces/{id}/revisions', () => {
  it('lists the revisions newest first with the pages each changed and its author', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    const body = res.body as ListBody;
    const ids = body.items.map((i) => i.id);
    expect(ids.slice(0, 3)).toEqual([revs.deleted, revs.edited, revs.created]);
    // Plus the space's empty first revision.
    expect(body.count).toBe(4);
    const [deleted, edited, created] = body.items;
    expect(deleted!.pages).toEqual([expect.objectContaining({ id: extraId, title: 'Extra', change: 'page_deleted' })]);
    expect(edited!.pages).toEqual([
      expect.objectContaining({ id: extraId, change: 'page_created' }),
      expect.objectContaining({ id: introId, title: 'Introduction', change: 'page_edited' }),
    ]);
    expect(edited!.parents).toEqual([revs.created]);
    expect(created!.author).toMatchObject({ object: 'user', id: adminId });
    expect(edited!.author).toBeUndefined();
    expect(Date.parse(deleted!.createdAt)).toBeGreaterThan(Date.parse(edited!.createdAt));
  });

  it('filters to the revisions that changed one page', async () => {
    const body = (await list(`?pageId=${extraId}`)).body as ListBody;
    expect(body.items.map((i) => i.id)).toEqual([revs.deleted, revs.edited]);
    expect(body.count).toBe(2);
    const intro = (await list(`?pageId=${introId}`)).body as ListBody;
    expect(intro.items.map((i) => i.id)).toEqual([revs.edited, revs.created]);
  });

  it('pages with next.page cursors and refuses a cursor it did not make', async () => {
    const first = (await list('?limit=2')).body as ListBody;
    expect(first.items).toHaveLength(2);
    expect(first.next?.page).toBeTruthy();
    const second = (await list(`?limit=2&page=${first.next!.page}`)).body as ListBody;
    expect(second.items.map((i) => i.id)).toEqual([revs.created, expect.any(String)]);
    expect(second.next).toBeUndefined();
    expectError(await list('?page=not-a-cursor'), 400, /cursor/);
    expectError(await list('?limit=0'), 400);
  });

  it('answers readers of the space, and 404 to others and for unknown spaces', async () => {
    expect((await list('', reader.token)).status).toBe(200);
    const outsider = await newUser(t, 'History Outsider');
    expectError(await list('', outsider.token), 404);
    expectError(await raw(t, 'GET', '/v1/spaces/nope123/revisions', { token: t.adminToken }), 404);
    expectError(await list(`?pageId=${encodeURIComponent('bad id!')}`), 400);
  });

  it('credits a revision cut from live socket edits to the person who typed', async () => {
    const client = clients.connect(t.url, spaceId, writer.token);
    await synced(client);
    new ContentDoc(client.doc).pageBody(introId).insert(0, 'Typed. ');
    await eventually(
      async () =>
        (
          await t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (d) => new ContentDoc(d).getMarkdown(introId))
        ).startsWith('Typed. '),
      'the typed text on the server',
    );
    await revise('typed');
    const top = ((await list('?limit=1')).body as ListBody).items[0]!;
    expect(top.id).toBe(revs.typed);
    expect(top.author).toMatchObject({ id: writer.id, displayName: 'History Writer' });
    expect(top.pages).toEqual([expect.objectContaining({ id: introId, change: 'page_edited' })]);
  });
});

describe('GET /spaces/{id}/revisions/{revisionId}/changes', () => {
  const changes = (revisionId: string, query = '', token = t.adminToken) =>
    raw(t, 'GET', `/v1/spaces/${spaceId}/revisions/${revisionId}/changes${query}`, { token });

  it("answers GitBook's RevisionSemanticChanges against the parent revision", async () => {
    const res = await changes(revs.edited!);
    expect(res.status).toBe(200);
    assertSemanticChanges(res.body);
    const body = res.body as { changes: { type: string; page: { id: string }; attributes?: object }[] };
    expect(body.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'page_edited',
          page: expect.objectContaining({ id: introId }),
          attributes: { document: { before: 'Hello world.\n', after: 'Hello brave new world.\n' } },
        }),
        expect.objectContaining({ type: 'page_created', page: expect.objectContaining({ id: extraId }) }),
      ]),
    );
    const deleted = (await changes(revs.deleted!)).body as typeof body;
    expect(deleted.changes).toEqual([expect.objectContaining({ type: 'page_deleted' })]);
    const limited = (await changes(revs.edited!, '?limit=1')).body as typeof body & { more?: number };
    expect(limited.changes).toHaveLength(1);
    expect(limited.more).toBe(1);
  });

  it('names the change request a merge revision came from', async () => {
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Merge me' })).data;
    await t.server.ctx.hub.change(crContentDoc(cr.id), (doc) => {
      new ContentDoc(doc).pageBody(introId).insert(0, 'Merged. ');
    });
    t.clock.advance(1000);
    const merged = (await t.client.spaces.mergeChangeRequest(spaceId, cr.id)).data;
    const res = await changes(merged.revision);
    assertSemanticChanges(res.body);
    expect(res.body).toMatchObject({ mergedFrom: { id: cr.id, status: 'merged' } });
    const top = ((await list('?limit=1')).body as ListBody).items[0]!;
    expect(top).toMatchObject({ id: merged.revision, type: 'merge', author: { id: adminId } });
  });

  it('404 for unknown revisions, revisions of change requests and other spaces; readers allowed', async () => {
    expect((await changes(revs.edited!, '', reader.token)).status).toBe(200);
    expectError(await changes('unknownRevision1'), 404);
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Fork' })).data;
    expectError(await changes(cr.revision), 404);
    const other = (await t.client.orgs.createSpace(orgId, { title: 'Other' })).data;
    expectError(
      await raw(t, 'GET', `/v1/spaces/${other.id}/revisions/${revs.edited}/changes`, { token: t.adminToken }),
      404,
    );
    const outsider = await newUser(t, 'Changes Outsider');
    expectError(await changes(revs.edited!, '', outsider.token), 404);
  });
});
