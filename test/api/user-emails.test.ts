import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRole, newUser, ok, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * One rule for every User object the API embeds (comment authors, reactors
 * and resolvers, change request creators and mergers, reviewers, requested
 * reviewers, members): its `email` is shown only to callers who may see the
 * organization's members (policy's `view-members`), and to the user themself.
 * A guest, refused the member list, must not read members' emails off a
 * comment either.
 */

let t: TestServer;
let orgId: string;
let spaceId: string;
let crId: string;
let alice: TestUser;
let reviewer: TestUser;
let reader: TestUser;
let guest: TestUser;
const md = (markdown: string) => ({ body: { markdown } });

/** Every User object anywhere in a JSON value. */
function usersIn(value: unknown, found: { id: string; email?: string }[] = []) {
  if (Array.isArray(value)) for (const v of value) usersIn(v, found);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.object === 'user') found.push(o as { id: string; email?: string });
    for (const v of Object.values(o)) usersIn(v, found);
  }
  return found;
}

/** The JSON of every read that embeds users, as `u` gets it. */
async function readsAs(u: TestUser): Promise<Record<string, unknown>> {
  const comments = (await raw(t, 'GET', `/v1/spaces/${spaceId}/comments`, { token: u.token })).body as {
    items: { id: string }[];
  };
  const first = comments.items.at(-1)!.id;
  const reviews = (await raw(t, 'GET', `/v1/spaces/${spaceId}/change-requests/${crId}/reviews`, { token: u.token }))
    .body as { items: { id: string }[] };
  const paths = [
    `/v1/spaces/${spaceId}/comments/${first}`,
    `/v1/spaces/${spaceId}/comments/${first}/replies`,
    `/v1/spaces/${spaceId}/change-requests`,
    `/v1/spaces/${spaceId}/change-requests/${crId}`,
    `/v1/spaces/${spaceId}/change-requests/${crId}/reviews/${reviews.items[0]!.id}`,
    `/v1/spaces/${spaceId}/change-requests/${crId}/requested-reviewers`,
    `/v1/spaces/${spaceId}/change-requests/${crId}/comments`,
  ];
  const out: Record<string, unknown> = { comments, reviews };
  for (const path of paths) {
    const res = await raw(t, 'GET', path, { token: u.token });
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    out[path] = res.body;
  }
  return out;
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Emails' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Shared with a guest' })).data.id;
  alice = await newMember(t, orgId, 'edit', 'Alice');
  reviewer = await newMember(t, orgId, 'review', 'Rita');
  reader = await newMember(t, orgId, 'read', 'Reader');
  // The guest reviews this one space through an invite link; they are not a member of the organization.
  const link = await ok(
    'createOrganizationInvite',
    t.client.orgs.createOrganizationInvite(orgId, { level: asRole('review'), space: spaceId }),
    201,
  );
  guest = await newUser(t, 'Guest');
  await t.clientFor(guest.token).orgs.joinOrganizationWithInvite(orgId, link.id);

  const as = (u: TestUser) => t.clientFor(u.token).spaces;
  const comment = (await as(alice).postCommentInSpace(spaceId, md('Alice asks'))).data;
  await as(reviewer).postCommentReplyInSpace(spaceId, comment.id, md('Rita answers'));
  await as(reviewer).updateCommentInSpace(spaceId, comment.id, { addedReactions: ['👍'], resolved: true });
  await as(guest).postCommentInSpace(spaceId, md('The guest says hi'));
  crId = (await as(alice).createChangeRequest(spaceId, { subject: 'By Alice' })).data.id;
  await as(alice).requestReviewersForChangeRequest(spaceId, crId, { users: [reviewer.id] });
  await as(reviewer).submitChangeRequestReview(spaceId, crId, { status: 'approved' as never });
  await as(guest).submitChangeRequestReview(spaceId, crId, { status: 'approved' as never });
  await as(alice).postCommentInChangeRequest(spaceId, crId, md('On the change request'));
});
afterAll(async () => {
  await t?.close();
});

describe("members' emails", () => {
  it('are hidden from a guest in comments, change requests and reviews (the guest sees their own)', async () => {
    expect((await raw(t, 'GET', `/v1/orgs/${orgId}/members`, { token: guest.token })).status).toBe(403);
    const users = usersIn(await readsAs(guest));
    const others = users.filter((u) => u.id !== guest.id);
    // Alice, Rita: authors, repliers, reactors, resolvers, creators, reviewers, requested reviewers.
    expect(new Set(others.map((u) => u.id))).toEqual(new Set([alice.id, reviewer.id]));
    expect(others.filter((u) => u.email !== undefined)).toEqual([]);
    expect(users.filter((u) => u.id === guest.id).map((u) => u.email)).toContain(guest.email);
  });

  it('are shown to members, who may see the member list anyway', async () => {
    const users = usersIn(await readsAs(reader));
    expect(users.find((u) => u.id === alice.id)?.email).toBe(alice.email);
    expect(users.find((u) => u.id === guest.id)?.email).toBe(guest.email);
    const members = (await raw(t, 'GET', `/v1/orgs/${orgId}/members`, { token: reader.token })).body as {
      items: { user: { id: string; email?: string } }[];
    };
    expect(members.items.find((m) => m.user.id === alice.id)?.user.email).toBe(alice.email);
  });

  it('show a guest their own member object and user, with their email', async () => {
    const me = await raw(t, 'GET', `/v1/orgs/${orgId}/members/${guest.id}`, { token: guest.token });
    expect((me.body as { user: { email?: string } }).user.email).toBe(guest.email);
    expect(((await raw(t, 'GET', '/v1/user', { token: guest.token })).body as { email?: string }).email).toBe(
      guest.email,
    );
  });
});
