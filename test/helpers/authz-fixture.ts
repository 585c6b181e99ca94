import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { raw } from './api';
import { newMember } from './members';
import { addCallersTo, callerNamed, mintCallers, type Caller } from './authz-callers';
import type { TestServer } from './server';

/**
 * The world the authorization matrix runs in: one organization with a
 * member of every role (and the other callers of authz-callers.ts), and one
 * of each resource an operation can address. Content lives in collection
 * `root` (which the invited guest administers): a space with a page, a file,
 * a comment and a reply, an open change request with its own comment, reply
 * and review, a nested collection, a published site with a section, a
 * section group and a site space, a team, invite links. Built through the
 * API as the instance admin (content server-side, as the sync socket would
 * write it), so nothing here bypasses what the server itself checks.
 */
export interface World {
  t: TestServer;
  callers: Caller[];
  organizationId: string;
  /** Every caller with a user is a `create` member there: where transfers go. */
  targetOrganizationId: string;
  /** An organization whose invite link every caller may use (joinOrganizationWithInvite). */
  lobbyOrganizationId: string;
  lobbyInviteId: string;
  rootCollectionId: string;
  /** A collection inside `root`: where moves go. */
  collectionId: string;
  spaceId: string;
  /** A space at the top level (outside `root`: the invited guest does not see it). */
  topSpaceId: string;
  pageId: string;
  pagePath: string;
  fileId: string;
  revisionId: string;
  /** The comment and reply of the space, and of the change request, are the `comment` member's. */
  commentAuthorId: string;
  commentId: string;
  replyId: string;
  changeRequestId: string;
  crCommentId: string;
  crReplyId: string;
  reviewId: string;
  /** A member with `review` who is asked to review the change request. */
  reviewerId: string;
  /** A plain `read` member other operations are about (get, update, list their spaces and teams). */
  memberId: string;
  /** Owned by the `read` member (owners administer their team whatever their role). */
  teamId: string;
  /** A link to the organization, and one to `root`. */
  inviteId: string;
  collectionInviteId: string;
  /** A published site: section `sectionId` holds site space `siteSpaceId`; group `groupId` holds another section. */
  siteId: string;
  sectionId: string;
  siteSpaceId: string;
  groupId: string;
  /** A second site, published and unpublished by the matrix (so `siteId` stays published). */
  publishSiteId: string;
  /** A signed PDF link (the public operation's only credential). */
  pdfUrl: string;
}

/**
 * Server settings for the matrix: rate limits off. It sends hundreds of bad-token requests from one address
 * and hundreds of writes with one token (the fixture's); it asserts authorization, not limits (those have
 * their own tests).
 */
export const NO_RATE_LIMITS: Record<string, string> = {
  FOLIO_RATE_LIMIT_AUTH_FAILURES: 'off',
  FOLIO_RATE_LIMIT_WRITES: 'off',
  FOLIO_RATE_LIMIT_READS: 'off',
  FOLIO_RATE_LIMIT_ANONYMOUS: 'off',
};

export const TITLES = {
  organization: 'Matrix Org',
  collection: 'Nested',
  space: 'Matrix space',
  changeRequest: 'Matrix change',
  team: 'Matrix team',
  site: 'Matrix site',
  section: 'Matrix section',
  group: 'Matrix group',
  siteSpacePath: 'matrix-space',
  comment: 'A comment by the comment member',
  reply: 'A reply by the comment member',
};

/** A request the fixture needs to succeed (as the instance admin unless `token` is given); returns its body. */
export async function must<T = Record<string, unknown>>(
  t: TestServer,
  method: string,
  path: string,
  body?: unknown,
  token: string = t.adminToken,
): Promise<T> {
  const res = await raw(t, method, `/v1${path}`, { token, body });
  if (res.status < 200 || res.status > 299)
    throw new Error(`fixture: ${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

const id = (body: { id?: unknown }) => String(body.id);

/** A domain the fixture organization verified (by the instance admin's approval). */
export const MATRIX_DOMAIN = 'matrix.test';

/** Builds the world on `t` (about seventy requests). */
export async function buildWorld(t: TestServer): Promise<World> {
  const organizationId = id(await must(t, 'POST', '/orgs', { title: TITLES.organization }));
  const rootCollectionId = id(await must(t, 'POST', `/orgs/${organizationId}/collections`, { title: 'Root' }));
  const collectionId = id(
    await must(t, 'POST', `/orgs/${organizationId}/collections`, {
      title: TITLES.collection,
      parent: rootCollectionId,
    }),
  );
  const callers = await mintCallers({ t, organizationId, collectionId: rootCollectionId });
  // The organization owns its users' domain (example.com: setUserAsSSOMember asks it) and matrix.test, which
  // verifyOrganizationDomain answers from the stored proof, without DNS.
  for (const domain of ['example.com', MATRIX_DOMAIN])
    await must(t, 'POST', `/orgs/${organizationId}/domains/${domain}/approve`);
  const commenter = callerNamed(callers, 'comment');
  const org = `/orgs/${organizationId}`;

  const targetOrganizationId = id(await must(t, 'POST', '/orgs', { title: 'Transfer target' }));
  await addCallersTo(t, targetOrganizationId, callers, 'create');
  const lobbyOrganizationId = id(await must(t, 'POST', '/orgs', { title: 'Lobby' }));
  const lobbyInviteId = id(await must(t, 'POST', `/orgs/${lobbyOrganizationId}/link-invites`, { role: 'read' }));

  const spaceId = id(await must(t, 'POST', `${org}/spaces`, { title: TITLES.space, parent: rootCollectionId }));
  const topSpaceId = id(await must(t, 'POST', `${org}/spaces`, { title: 'Top-level space' }));
  const { pageId, fileId } = await writeContent(t, organizationId, spaceId);
  await t.server.ctx.snapshots.revise(spaceId);
  const space = await must<{ revision: string }>(t, 'GET', `/spaces/${spaceId}`);
  const page = await must<{ path: string }>(t, 'GET', `/spaces/${spaceId}/content/page/${pageId}`);

  const comments = `/spaces/${spaceId}/comments`;
  const commentId = id(await must(t, 'POST', comments, { body: { markdown: TITLES.comment } }, commenter.token!));
  const reply = { body: { markdown: TITLES.reply } };
  const replyId = id(await must(t, 'POST', `${comments}/${commentId}/replies`, reply, commenter.token!));

  const changeRequestId = id(
    await must(t, 'POST', `/spaces/${spaceId}/change-requests`, { subject: TITLES.changeRequest }),
  );
  const cr = `/spaces/${spaceId}/change-requests/${changeRequestId}`;
  await must(t, 'PATCH', cr, { status: 'open' });
  const crCommentId = id(
    await must(t, 'POST', `${cr}/comments`, { body: { markdown: TITLES.comment } }, commenter.token!),
  );
  const crReplyId = id(await must(t, 'POST', `${cr}/comments/${crCommentId}/replies`, reply, commenter.token!));
  const reviewId = id(await must(t, 'POST', `${cr}/reviews`, { status: 'changes-requested' }));
  const reviewerId = callerNamed(callers, 'review').userId!;
  await must(t, 'POST', `${cr}/requested-reviewers`, { users: [reviewerId] });
  const pdf = await must<{ url: string }>(t, 'GET', `${cr}/pdf`);

  const target = await newTargetMember(t, organizationId);
  const teamId = id(await must(t, 'PUT', `${org}/teams`, { title: TITLES.team, members: [target] }));
  // Team ownership has no operation in the spec: set in the database (as test/api/teams.test.ts does).
  await t.server.ctx.db.query(
    'INSERT INTO team_members (team_id, user_id, is_owner) VALUES ($1, $2, true) ON CONFLICT (team_id, user_id) DO UPDATE SET is_owner = true',
    [teamId, callerNamed(callers, 'read').userId],
  );
  const inviteId = id(await must(t, 'POST', `${org}/link-invites`, { role: 'read' }));
  const collectionInviteId = id(
    await must(t, 'POST', `${org}/link-invites`, { level: 'read', collection: rootCollectionId }),
  );

  const site = await buildSite(t, organizationId, spaceId);
  const publishSiteId = id(await must(t, 'POST', `${org}/sites`, { title: 'Published and unpublished' }));

  return {
    t,
    callers,
    organizationId,
    targetOrganizationId,
    lobbyOrganizationId,
    lobbyInviteId,
    rootCollectionId,
    collectionId,
    spaceId,
    topSpaceId,
    pageId,
    pagePath: page.path,
    fileId,
    revisionId: space.revision,
    commentAuthorId: commenter.userId!,
    commentId,
    replyId,
    changeRequestId,
    crCommentId,
    crReplyId,
    reviewId,
    reviewerId,
    memberId: target,
    teamId,
    inviteId,
    collectionInviteId,
    ...site,
    publishSiteId,
    pdfUrl: pdf.url,
  };
}

/** A new `read` member nobody calls as (operations about "another member" address them). */
export async function newTargetMember(t: TestServer, organizationId: string): Promise<string> {
  return (await newMember(t, organizationId, 'read', 'Matrix target member')).id;
}

/** Writes a page and a file (with uploaded bytes) into the space's live document, as an editor's socket would. */
async function writeContent(t: TestServer, organizationId: string, spaceId: string) {
  const bytes = new TextEncoder().encode('matrix file');
  const slot = await must<{ url: string }>(t, 'POST', `/orgs/${organizationId}/storage/upload`, {
    file: { name: 'matrix.txt', type: 'text/plain', size: bytes.length },
    kind: 'organization_file',
  });
  const uploaded = await fetch(slot.url, { method: 'PUT', body: bytes });
  if (!uploaded.ok) throw new Error(`fixture: upload answered ${uploaded.status}`);
  const { sha256 } = (await uploaded.json()) as { sha256: string };
  const fileId = 'matrixFile0000000000';
  let pageId = '';
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const content = new ContentDoc(doc);
    pageId = content.createPage({ title: 'Introduction', markdown: `Read [the file](/files/${fileId}).\n` });
    content.putFile(fileId, { name: 'matrix.txt', contentType: 'text/plain', size: bytes.length, sha256 });
  });
  return { pageId, fileId };
}

/**
 * A published site publishing the space in its first section (which holds
 * site space `siteSpaceId`), then a second section inside group `groupId`.
 */
async function buildSite(t: TestServer, organizationId: string, spaceId: string) {
  const base = `/orgs/${organizationId}/sites`;
  const siteId = id(await must(t, 'POST', base, { title: TITLES.site, spaces: [spaceId] }));
  const site = `${base}/${siteId}`;
  // The first section gathers the root-level site space into a default section; this one is the second.
  const second = id(await must(t, 'POST', `${site}/sections`, { spaceId, title: 'Second section' }));
  const sections = await must<{ items: { id: string }[] }>(t, 'GET', `${site}/sections`);
  const sectionId = sections.items.find((s) => s.id !== second)!.id;
  await must(t, 'PATCH', `${site}/sections/${sectionId}`, { title: TITLES.section });
  const siteSpaces = await must<{ items: { id: string; section?: string }[] }>(t, 'GET', `${site}/site-spaces`);
  const siteSpaceId = siteSpaces.items[0]!.id;
  await must(t, 'PATCH', `${site}/site-spaces/${siteSpaceId}`, { path: TITLES.siteSpacePath });
  const groupId = id(await must(t, 'POST', `${site}/section-groups`, { title: TITLES.group, sections: [second] }));
  await must(t, 'POST', `${site}/publish`);
  return { siteId, sectionId, siteSpaceId, groupId };
}
