import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscussionDoc } from '../../shared/discussion';
import { ok } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/** Comments are written through REST into the discussion document; socket subscribers see them live. */
let t: TestServer;
let spaceId: string;
let client: Client;

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Live Comments' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  const reader = await newMember(t, orgId, 'read', 'Reader');
  client = connect(t.url, { spaceId, kind: 'discussion' }, reader.token);
  await synced(client);
});
afterAll(async () => {
  client?.destroy();
  await t?.close();
});

describe('live discussion', () => {
  it('shows a comment posted via REST, then its reply, reaction and resolution, to a stock y-websocket client', async () => {
    const live = new DiscussionDoc(client.doc);
    expect(live.listComments()).toEqual([]);
    const c = await ok(
      'postCommentInSpace',
      t.client.spaces.postCommentInSpace(spaceId, { body: { markdown: 'Live **comment**' } }),
    );
    const seen = await waitFor(() => live.getComment(c.id), 10_000, 'comment over sync');
    expect(seen).toMatchObject({ markdown: 'Live **comment**', postedAt: c.postedAt });

    const r = (await t.client.spaces.postCommentReplyInSpace(spaceId, c.id, { body: { markdown: 'A reply' } })).data;
    await t.client.spaces.updateCommentInSpace(spaceId, c.id, { resolved: true, addedReactions: ['🚀'] });
    await waitFor(() => live.getComment(c.id)?.resolvedAt, 10_000, 'resolution over sync');
    const after = live.getComment(c.id)!;
    expect(after.replies.map((x) => x.id)).toEqual([r.id]);
    expect(after.reactions.map((x) => x.emoji)).toEqual(['🚀']);

    await t.client.spaces.deleteCommentInSpace(spaceId, c.id);
    await waitFor(() => live.getComment(c.id) === undefined, 10_000, 'deletion over sync');
  });

  it('does not let the socket client write the discussion', async () => {
    const c = (await t.client.spaces.postCommentInSpace(spaceId, { body: { markdown: 'Server copy' } })).data;
    await waitFor(() => new DiscussionDoc(client.doc).getComment(c.id), 10_000, 'comment over sync');
    new DiscussionDoc(client.doc).editBody({ comment: c.id }, 'Forged');
    await sleep(200);
    expect(((await t.client.spaces.getCommentInSpace(spaceId, c.id)).data.body as { markdown: string }).markdown).toBe(
      'Server copy',
    );
  });
});
