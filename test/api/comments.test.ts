import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { Comment, CommentReply } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { markdownToDocument } from '../../shared/markdown';
import { crContentDoc, crDiscussionDoc, spaceContentDoc, spaceDiscussionDoc } from '../../shared/sync-contract';
import { newId } from '../../sync-server/http/ids';
import { expectError, fails, newUser, ok, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

let t: TestServer;
let orgId: string;
let spaceId: string;
let pageId: string;
let otherPageId: string;
let reader: TestUser;
let alice: TestUser; // comment role
let bob: TestUser; // comment role
let orgAdmin: TestUser;
let stranger: TestUser;

const md = (markdown: string) => ({ body: { markdown } });
const as = (u: TestUser) => t.clientFor(u.token).spaces;
const bodyOf = (c: Comment | CommentReply) => (c.body as { markdown?: string }).markdown;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Comments Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const content = new ContentDoc(doc);
    pageId = content.createPage({ title: 'Intro', markdown: '# Intro\n' });
    otherPageId = content.createPage({ title: 'Other' });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  [reader, alice, bob, orgAdmin] = await Promise.all([
    newMember(t, orgId, 'read', 'Reader'),
    newMember(t, orgId, 'comment', 'Alice'),
    newMember(t, orgId, 'comment', 'Bob'),
    newMember(t, orgId, 'admin', 'Org Admin'),
  ]);
  stranger = await newUser(t, 'Stranger');
});
afterAll(async () => {
  await t?.close();
});

describe('comments on a space', () => {
  it('posts, gets and lists a comment on a page, validated against GitBook', async () => {
    const posted = await ok(
      'postCommentInSpace',
      as(alice).postCommentInSpace(spaceId, { ...md('Is this **right**?'), page: pageId, node: 'node-1' }),
    );
    expect(posted).toMatchObject({
      object: 'comment',
      status: 'open',
      replies: 0,
      repliers: [],
      reactions: [],
      postedBy: { id: alice.id, displayName: 'Alice' },
      body: { markdown: 'Is this **right**?' },
      target: {
        space: spaceId,
        page: { id: pageId, title: 'Intro', path: 'intro', outdated: false },
        node: { id: 'node-1' },
      },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(posted.urls.location).toBe(`${t.url}/v1/spaces/${spaceId}/comments/${posted.id}`);
    const got = await ok('getCommentInSpace', as(reader).getCommentInSpace(spaceId, posted.id));
    expect(got).toMatchObject({ id: posted.id, permissions: { view: true, edit: false, reply: false, delete: false } });
    const list = await ok('listCommentsInSpace', as(reader).listCommentsInSpace(spaceId));
    expect(list.items.map((c) => c.id)).toContain(posted.id);
    const asDoc = await ok(
      'getCommentInSpace',
      as(alice).getCommentInSpace(spaceId, posted.id, { format: 'document' }),
    );
    const doc = (asDoc.body as { document: { object: string; nodes: { type: string }[] } }).document;
    expect(doc.object).toBe('document');
    expect(doc.nodes[0]!.type).toBe('paragraph');
  });

  it('accepts a JSON document body and a table cell target', async () => {
    const posted = await ok(
      'postCommentInSpace',
      as(bob).postCommentInSpace(spaceId, {
        body: { document: markdownToDocument('Hello *world*') } as never,
        tableCell: { record: 'r1', definition: 'd1' },
      }),
    );
    expect(bodyOf(posted)).toBe('Hello *world*');
    expect(posted.target.tableCell).toEqual({ record: 'r1', definition: 'd1' });
    await as(bob).deleteCommentInSpace(spaceId, posted.id);
  });

  it('refuses bad input with 400 and unknown comments with 404', async () => {
    await fails(as(alice).postCommentInSpace(spaceId, { body: {} }), 400);
    await fails(as(alice).postCommentInSpace(spaceId, md('   \n')), 400);
    const unknownPage = await raw(t, 'POST', `/v1/spaces/${spaceId}/comments`, {
      token: alice.token,
      body: { ...md('x'), page: 'nope' },
    });
    expectError(unknownPage, 400, /page/i);
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/comments`, { token: alice.token, body: { ...md('x'), extra: 1 } }),
      400,
    );
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}/comments?limit=0`, { token: alice.token }), 400);
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}/comments?limit=1001`, { token: alice.token }), 400);
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}/comments?status=closed`, { token: alice.token }), 400);
    await fails(as(alice).getCommentInSpace(spaceId, 'nope'), 404);
    await fails(as(alice).updateCommentInSpace(spaceId, 'nope', { resolved: true }), 404);
    await fails(as(alice).postCommentReplyInSpace(spaceId, 'nope', md('x')), 404);
    await fails(as(alice).listCommentRepliesInSpace(spaceId, 'nope'), 404);
    const c = (await as(alice).postCommentInSpace(spaceId, md('for reactions'))).data;
    const badReaction = await raw(t, 'PUT', `/v1/spaces/${spaceId}/comments/${c.id}`, {
      token: alice.token,
      body: { addedReactions: ['not-an-emoji'] },
    });
    expectError(badReaction, 400, /reaction/i);
    await fails(as(alice).updateCommentInSpace(spaceId, c.id, { removedReactions: [''] }), 400);
    await fails(as(alice).updateCommentInSpace(spaceId, c.id, { body: { markdown: '' } }), 400);
    await fails(as(alice).getCommentReplyInSpace(spaceId, c.id, 'nope'), 404);
    await fails(as(alice).updateCommentReplyInSpace(spaceId, c.id, 'nope', { addedReactions: ['👍'] }), 404);
    await as(alice).deleteCommentInSpace(spaceId, c.id);
  });

  it('enforces roles: read views only, comment posts/reacts/resolves, authors edit, admins delete', async () => {
    await fails(as(reader).postCommentInSpace(spaceId, md('nope')), 403);
    const c = await ok('postCommentInSpace', as(alice).postCommentInSpace(spaceId, md('Mine')));
    await fails(as(reader).postCommentReplyInSpace(spaceId, c.id, md('nope')), 403);
    await fails(as(reader).updateCommentInSpace(spaceId, c.id, { addedReactions: ['👍'] }), 403);
    await fails(as(reader).updateCommentInSpace(spaceId, c.id, { resolved: true }), 403);
    await fails(as(bob).updateCommentInSpace(spaceId, c.id, md('Hijacked')), 403);
    await fails(as(bob).deleteCommentInSpace(spaceId, c.id), 403);
    await fails(as(reader).deleteCommentInSpace(spaceId, c.id), 403);

    const edited = await ok('updateCommentInSpace', as(alice).updateCommentInSpace(spaceId, c.id, md('Mine, edited')));
    expect(bodyOf(edited)).toBe('Mine, edited');
    expect(edited.editedAt).toBeDefined();

    // Bob reacts (twice with the same emoji: still one) and resolves.
    await as(bob).updateCommentInSpace(spaceId, c.id, { addedReactions: ['👍', '🎉'] });
    const resolved = await ok(
      'updateCommentInSpace',
      as(bob).updateCommentInSpace(spaceId, c.id, { resolved: true, addedReactions: ['👍'], removedReactions: ['🎉'] }),
    );
    expect(resolved).toMatchObject({ status: 'resolved', resolvedBy: { id: bob.id } });
    expect(resolved.reactions).toEqual([
      {
        emoji: '👍',
        count: 1,
        users: [{ user: expect.objectContaining({ id: bob.id }), reactedAt: expect.any(String) }],
      },
    ]);
    expect(resolved.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });
    await as(alice).updateCommentInSpace(spaceId, c.id, { addedReactions: ['👍'] });
    const two = (await as(alice).getCommentInSpace(spaceId, c.id)).data;
    expect(two.reactions[0]).toMatchObject({ emoji: '👍', count: 2 });
    const reopened = await ok(
      'updateCommentInSpace',
      as(alice).updateCommentInSpace(spaceId, c.id, { resolved: false }),
    );
    expect(reopened.status).toBe('open');
    expect(reopened).not.toHaveProperty('resolvedAt');
    expect(reopened).not.toHaveProperty('resolvedBy');

    const asAdmin = (await as(orgAdmin).getCommentInSpace(spaceId, c.id)).data;
    expect(asAdmin.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    await ok('deleteCommentInSpace', as(orgAdmin).deleteCommentInSpace(spaceId, c.id), 204);
    await fails(as(alice).getCommentInSpace(spaceId, c.id), 404);
    await ok('deleteCommentInSpace', as(orgAdmin).deleteCommentInSpace(spaceId, c.id), 204);
  });

  it('hides the space from strangers (404) and needs a token (401)', async () => {
    const c = (await as(alice).postCommentInSpace(spaceId, md('private'))).data;
    await fails(as(stranger).listCommentsInSpace(spaceId), 404);
    await fails(as(stranger).getCommentInSpace(spaceId, c.id), 404);
    await fails(as(stranger).postCommentInSpace(spaceId, md('x')), 404);
    await fails(as(stranger).updateCommentInSpace(spaceId, c.id, { resolved: true }), 404);
    await fails(as(stranger).postCommentReplyInSpace(spaceId, c.id, md('x')), 404);
    // DELETE of what the caller cannot see answers like DELETE of nothing, and deletes nothing.
    expect((await as(stranger).deleteCommentInSpace(spaceId, c.id)).status).toBe(204);
    expect((await as(alice).getCommentInSpace(spaceId, c.id)).status).toBe(200);
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}/comments`, { token: null }), 401);
    expectError(await raw(t, 'POST', `/v1/spaces/${spaceId}/comments`, { token: 'wrong-token', body: md('x') }), 401);
    await as(alice).deleteCommentInSpace(spaceId, c.id);
  });

  it('replies: post, get, list, edit (author only), react, delete (author or admin)', async () => {
    const c = (await as(alice).postCommentInSpace(spaceId, md('Question'))).data;
    const r1 = await ok('postCommentReplyInSpace', as(bob).postCommentReplyInSpace(spaceId, c.id, md('Answer')));
    expect(r1).toMatchObject({
      object: 'comment-reply',
      postedBy: { id: bob.id },
      body: { markdown: 'Answer' },
      permissions: { edit: true, delete: true },
    });
    expect(r1.urls.location).toBe(`${t.url}/v1/spaces/${spaceId}/comments/${c.id}/replies/${r1.id}`);
    const r2 = await ok('postCommentReplyInSpace', as(alice).postCommentReplyInSpace(spaceId, c.id, md('Thanks')));
    const got = await ok(
      'getCommentReplyInSpace',
      as(reader).getCommentReplyInSpace(spaceId, c.id, r1.id, { format: 'document' }),
    );
    expect((got.body as { document?: unknown }).document).toBeDefined();
    expect(got.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    const list = await ok(
      'listCommentRepliesInSpace',
      as(reader).listCommentRepliesInSpace(spaceId, c.id, { limit: 1 }),
    );
    expect(list.items.map((r) => r.id)).toEqual([r1.id]);
    expect(list.count).toBe(2);
    const next = await ok(
      'listCommentRepliesInSpace',
      as(reader).listCommentRepliesInSpace(spaceId, c.id, { limit: 1, page: list.next!.page }),
    );
    expect(next.items.map((r) => r.id)).toEqual([r2.id]);
    const parent = await ok('getCommentInSpace', as(reader).getCommentInSpace(spaceId, c.id));
    expect(parent.replies).toBe(2);
    expect(parent.repliers.map((x) => x.user.id).sort()).toEqual([alice.id, bob.id].sort());

    await fails(as(alice).updateCommentReplyInSpace(spaceId, c.id, r1.id, md('Not mine')), 403);
    await fails(as(reader).updateCommentReplyInSpace(spaceId, c.id, r1.id, { addedReactions: ['👍'] }), 403);
    await fails(as(alice).updateCommentReplyInSpace(spaceId, c.id, r1.id, { addedReactions: ['nope'] }), 400);
    const edited = await ok(
      'updateCommentReplyInSpace',
      as(bob).updateCommentReplyInSpace(spaceId, c.id, r1.id, md('Better answer')),
    );
    expect(bodyOf(edited)).toBe('Better answer');
    const reacted = await ok(
      'updateCommentReplyInSpace',
      as(alice).updateCommentReplyInSpace(spaceId, c.id, r1.id, { addedReactions: ['❤️'] }),
    );
    expect(reacted.reactions).toMatchObject([{ emoji: '❤️', count: 1 }]);

    await fails(as(alice).deleteCommentReplyInSpace(spaceId, c.id, r1.id), 403);
    await ok('deleteCommentReplyInSpace', as(bob).deleteCommentReplyInSpace(spaceId, c.id, r1.id), 204);
    await ok('deleteCommentReplyInSpace', as(orgAdmin).deleteCommentReplyInSpace(spaceId, c.id, r2.id), 204);
    await ok('deleteCommentReplyInSpace', as(bob).deleteCommentReplyInSpace(spaceId, c.id, 'missing'), 204);
    await fails(as(reader).getCommentReplyInSpace(spaceId, c.id, r1.id), 404);
    expect((await as(reader).getCommentInSpace(spaceId, c.id)).data.replies).toBe(0);
    await as(alice).deleteCommentInSpace(spaceId, c.id);
  });

  it('keeps the Space comments counter at the number of open comments', async () => {
    const org = (await t.client.orgs.createOrganization({ title: 'Counter Org' })).data.id;
    const space = (await t.client.orgs.createSpace(org, { title: 'Counted' })).data.id;
    const count = async () => (await t.client.spaces.getSpaceById(space)).data.comments;
    expect(await count()).toBe(0);
    const a = (await t.client.spaces.postCommentInSpace(space, { body: { markdown: 'one' } } as never)).data;
    await t.client.spaces.postCommentInSpace(space, { body: { markdown: 'two' } } as never);
    expect(await count()).toBe(2);
    await t.client.spaces.updateCommentInSpace(space, a.id, { resolved: true } as never);
    expect(await count()).toBe(1);
    await t.client.spaces.deleteCommentInSpace(space, a.id);
    expect(await count()).toBe(1);
  });

  it('filters by status, target page and authors, orders and pages', async () => {
    const fresh = (await t.client.orgs.createSpace(orgId, { title: 'Filters' })).data.id;
    let pg = '';
    await t.server.ctx.hub.change(spaceContentDoc(fresh), (doc) => {
      pg = new ContentDoc(doc).createPage({ title: 'P' });
    });
    const post = async (u: TestUser, text: string, page?: string) => {
      t.clock.advance(1000);
      return (await as(u).postCommentInSpace(fresh, { ...md(text), ...(page ? { page } : {}) })).data.id;
    };
    const a1 = await post(alice, 'a1', pg);
    const b1 = await post(bob, 'b1');
    const a2 = await post(alice, 'a2');
    await as(bob).updateCommentInSpace(fresh, a2, { resolved: true });
    const ids = async (query: Parameters<ReturnType<typeof as>['listCommentsInSpace']>[1]) =>
      (await ok('listCommentsInSpace', as(reader).listCommentsInSpace(fresh, query))).items.map((c) => c.id);
    expect(await ids({})).toEqual([a2, b1, a1]);
    expect(await ids({ order: 'asc' })).toEqual([a1, b1, a2]);
    expect(await ids({ status: 'open' })).toEqual([b1, a1]);
    expect(await ids({ status: 'resolved' })).toEqual([a2]);
    expect(await ids({ status: 'all', order: 'asc' })).toEqual([a1, b1, a2]);
    expect(await ids({ targetPage: pg })).toEqual([a1]);
    expect(await ids({ targetPage: otherPageId })).toEqual([]);
    expect(await ids({ authors: [alice.id] })).toEqual([a2, a1]);
    expect(await ids({ authors: [alice.id, bob.id], status: 'open', order: 'asc' })).toEqual([a1, b1]);
    const first = await ok('listCommentsInSpace', as(reader).listCommentsInSpace(fresh, { limit: 2 }));
    expect(first.items.map((c) => c.id)).toEqual([a2, b1]);
    expect(first.count).toBe(3);
    const second = await ok(
      'listCommentsInSpace',
      as(reader).listCommentsInSpace(fresh, { limit: 2, page: first.next!.page }),
    );
    expect(second.items.map((c) => c.id)).toEqual([a1]);
    expect(second.next).toBeUndefined();
    const docs = await ok(
      'listCommentsInSpace',
      as(reader).listCommentsInSpace(fresh, { format: 'document', limit: 1 }),
    );
    expect((docs.items[0]!.body as { document?: unknown }).document).toBeDefined();

    const { openCommentCount } = await import('../../sync-server/api/comments/counts');
    expect(await openCommentCount(t.server.ctx, spaceDiscussionDoc(fresh))).toBe(2);
  });
});

describe('comments on a change request', () => {
  let crId: string;
  let crPage: string;

  beforeAll(async () => {
    // The change-request module makes these through its API; here a row and a forked content document suffice.
    crId = newId();
    const space = await t.server.ctx.db.query<{ revision: string }>('SELECT revision FROM spaces WHERE id = $1', [
      spaceId,
    ]);
    await t.server.ctx.db.query(
      'INSERT INTO change_requests (id, space_id, number, subject, status, created_by, revision, revision_initial) VALUES ($1, $2, 1, $3, $4, NULL, $5, $5)',
      [crId, spaceId, 'Review me', 'open', space[0]!.revision],
    );
    const spaceState = await t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (doc) => Y.encodeStateAsUpdate(doc));
    await t.server.ctx.hub.change(crContentDoc(crId), (doc) => {
      Y.applyUpdate(doc, spaceState);
      crPage = new ContentDoc(doc).createPage({ title: 'Only in the change request' });
    });
  });

  it('runs every operation on the change request discussion, separate from the space', async () => {
    const c = await ok(
      'postCommentInChangeRequest',
      as(alice).postCommentInChangeRequest(spaceId, crId, { ...md('On the fork'), page: crPage }),
    );
    expect(c.target).toMatchObject({ space: spaceId, changeRequest: crId, page: { id: crPage } });
    expect(c.urls.location).toBe(`${t.url}/v1/spaces/${spaceId}/change-requests/${crId}/comments/${c.id}`);
    await fails(as(alice).postCommentInSpace(spaceId, { ...md('x'), page: crPage }), 400);
    expect((await as(reader).listCommentsInSpace(spaceId)).data.items.map((x) => x.id)).not.toContain(c.id);
    // By number too.
    const list = await ok(
      'listCommentsInChangeRequest',
      as(reader).listCommentsInChangeRequest(spaceId, '1', { status: 'open' }),
    );
    expect(list.items.map((x) => x.id)).toEqual([c.id]);
    await ok(
      'getCommentInChangeRequest',
      as(reader).getCommentInChangeRequest(spaceId, crId, c.id, { format: 'document' }),
    );
    const updated = await ok(
      'updateCommentInChangeRequest',
      as(bob).updateCommentInChangeRequest(spaceId, crId, c.id, { resolved: true, addedReactions: ['👀'] }),
    );
    expect(updated).toMatchObject({ status: 'resolved', reactions: [{ emoji: '👀', count: 1 }] });
    await fails(as(bob).updateCommentInChangeRequest(spaceId, crId, c.id, md('nope')), 403);
    await fails(as(reader).postCommentInChangeRequest(spaceId, crId, md('nope')), 403);

    const r = await ok(
      'postCommentReplyInChangeRequest',
      as(bob).postCommentReplyInChangeRequest(spaceId, crId, c.id, md('Reply')),
    );
    await ok('getCommentReplyInChangeRequest', as(reader).getCommentReplyInChangeRequest(spaceId, crId, c.id, r.id));
    const replies = await ok(
      'listCommentRepliesInChangeRequest',
      as(reader).listCommentRepliesInChangeRequest(spaceId, crId, c.id),
    );
    expect(replies.items.map((x) => x.id)).toEqual([r.id]);
    const editedReply = await ok(
      'updateCommentReplyInChangeRequest',
      as(bob).updateCommentReplyInChangeRequest(spaceId, crId, c.id, r.id, md('Reply!')),
    );
    expect(bodyOf(editedReply)).toBe('Reply!');
    await fails(as(alice).updateCommentReplyInChangeRequest(spaceId, crId, c.id, r.id, md('no')), 403);
    await ok(
      'deleteCommentReplyInChangeRequest',
      as(bob).deleteCommentReplyInChangeRequest(spaceId, crId, c.id, r.id),
      204,
    );

    await fails(as(stranger).listCommentsInChangeRequest(spaceId, crId), 404);
    await fails(as(alice).listCommentsInChangeRequest(spaceId, 'no-such-cr'), 404);
    const { openCommentCount } = await import('../../sync-server/api/comments/counts');
    expect(await openCommentCount(t.server.ctx, crDiscussionDoc(crId))).toBe(0);
    await ok('deleteCommentInChangeRequest', as(alice).deleteCommentInChangeRequest(spaceId, crId, c.id), 204);
    await fails(as(alice).getCommentInChangeRequest(spaceId, crId, c.id), 404);
  });
});
