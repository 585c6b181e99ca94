import { callerNamed } from './authz-callers';
import { must, newTargetMember, TITLES, type World } from './authz-fixture';

/**
 * Fresh resources for the operations that destroy or transform what they
 * address (DELETE, merge, move, transfer, restore, structure moves): every
 * cell gets its own, made by the instance admin just before the call, so
 * a cell never depends on what the callers before it did. Each builder
 * returns the path parameters it replaces.
 */
export type Params = Record<string, string>;

let counter = 0;
const nth = () => ++counter;
const id = (body: { id?: unknown }) => String(body.id);
const org = (w: World) => `/orgs/${w.organizationId}`;
const site = (w: World) => `${org(w)}/sites/${w.siteId}`;

async function spaceIn(w: World, parent = w.rootCollectionId): Promise<string> {
  return id(await must(w.t, 'POST', `${org(w)}/spaces`, { title: `Fresh space ${nth()}`, parent }));
}

/** The comment member's post in the space's (or the change request's) discussion. */
async function commentBy(w: World, changeRequestId?: string, replyTo?: string): Promise<string> {
  const owner = changeRequestId ? `/spaces/${w.spaceId}/change-requests/${changeRequestId}` : `/spaces/${w.spaceId}`;
  const path = replyTo ? `${owner}/comments/${replyTo}/replies` : `${owner}/comments`;
  const token = callerNamed(w.callers, 'comment').token!;
  return id(await must(w.t, 'POST', path, { body: { markdown: `Fresh post ${nth()}` } }, token));
}

export const fresh = {
  space: async (w: World): Promise<Params> => ({ spaceId: await spaceIn(w) }),
  deletedSpace: async (w: World): Promise<Params> => {
    const spaceId = await spaceIn(w);
    await must(w.t, 'DELETE', `/spaces/${spaceId}`);
    return { spaceId };
  },
  collection: async (w: World): Promise<Params> => ({
    collectionId: id(
      await must(w.t, 'POST', `${org(w)}/collections`, { title: `Fresh ${nth()}`, parent: w.rootCollectionId }),
    ),
  }),
  member: async (w: World): Promise<Params> => ({ userId: await newTargetMember(w.t, w.organizationId) }),
  invite: async (w: World): Promise<Params> => ({
    inviteId: id(await must(w.t, 'POST', `${org(w)}/link-invites`, { role: 'read' })),
  }),
  team: async (w: World): Promise<Params> => ({
    teamId: id(await must(w.t, 'PUT', `${org(w)}/teams`, { title: `Fresh team ${nth()}` })),
  }),
  samlProvider: async (w: World): Promise<Params> => ({
    samlProviderId: id(await must(w.t, 'POST', `${org(w)}/saml`, { label: `Fresh IdP ${nth()}` })),
  }),
  goneSamlProvider: async (w: World): Promise<Params> => {
    const samlProviderId = id(await must(w.t, 'POST', `${org(w)}/saml`, { label: `Gone IdP ${nth()}` }));
    await must(w.t, 'DELETE', `${org(w)}/saml/${samlProviderId}`);
    return { samlProviderId };
  },
  comment: async (w: World): Promise<Params> => ({ commentId: await commentBy(w) }),
  reply: async (w: World): Promise<Params> => ({ commentReplyId: await commentBy(w, undefined, w.commentId) }),
  crComment: async (w: World): Promise<Params> => ({
    commentId: await commentBy(w, w.changeRequestId),
  }),
  crReply: async (w: World): Promise<Params> => ({
    commentId: w.crCommentId,
    commentReplyId: await commentBy(w, w.changeRequestId, w.crCommentId),
  }),
  /** An open change request of the space. */
  changeRequest: async (w: World): Promise<Params> => {
    const changeRequestId = id(
      await must(w.t, 'POST', `/spaces/${w.spaceId}/change-requests`, { subject: `Fresh ${nth()}` }),
    );
    await must(w.t, 'PATCH', `/spaces/${w.spaceId}/change-requests/${changeRequestId}`, { status: 'open' });
    return { changeRequestId };
  },
  site: async (w: World): Promise<Params> => ({
    siteId: id(await must(w.t, 'POST', `${org(w)}/sites`, { title: `Fresh site ${nth()}` })),
  }),
  /** A top-level section of the matrix site, last. */
  section: async (w: World): Promise<Params> => ({
    siteSectionId: id(await must(w.t, 'POST', `${site(w)}/sections`, { spaceId: w.spaceId })),
  }),
  /** A section inside the matrix site's group. */
  sectionInGroup: async (w: World): Promise<Params> => ({
    siteSectionId: id(
      await must(w.t, 'POST', `${site(w)}/sections`, { spaceId: w.spaceId, siteSectionGroupId: w.groupId }),
    ),
  }),
  group: async (w: World): Promise<Params> => ({
    siteSectionGroupId: id(await must(w.t, 'POST', `${site(w)}/section-groups`, { title: `Fresh group ${nth()}` })),
  }),
  /** A space in `root` that no site publishes yet (its path parameter is `newSpaceId`, used by the body). */
  unpublishedSpace: async (w: World): Promise<Params> => ({ newSpaceId: await spaceIn(w) }),
  /** A site space publishing a fresh space in the matrix section, last. */
  siteSpace: async (w: World): Promise<Params> => ({
    siteSpaceId: id(
      await must(w.t, 'POST', `${site(w)}/site-spaces`, { spaceId: await spaceIn(w), sectionId: w.sectionId }),
    ),
  }),
};

/** The matrix's titles, re-exported for the table's idempotent updates. */
export { TITLES };
