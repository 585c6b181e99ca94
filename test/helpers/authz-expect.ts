import { decide, type Decision, type Resource } from '../../sync-server/policy';
import type { ChangeRequestAction } from '../../sync-server/policy/change-request';
import type { CollectionAction, SpaceAction } from '../../sync-server/policy/content';
import type { DiscussionAction, PostAction } from '../../sync-server/policy/discussion';
import { decideInstance, type InstanceAction } from '../../sync-server/policy/instance';
import type { OrganizationAction } from '../../sync-server/policy/organization';
import type { SiteAction } from '../../sync-server/policy/site';
import type { TeamAction } from '../../sync-server/policy/team';
import { loadActor } from '../../sync-server/access/actor';
import {
  changeRequestResource,
  collectionResource,
  discussionResource,
  spaceResource,
} from '../../sync-server/access/resources';
import { apiErrorOf, organization } from '../../sync-server/api/authorize';
import { siteResource } from '../../sync-server/api/sites/access';
import { teamResource } from '../../sync-server/api/teams/present';
import { findChangeRequest } from '../../sync-server/store/change-requests';
import { loadCollectionRow } from '../../sync-server/store/collections';
import type { Queryable } from '../../sync-server/store/db';
import { loadSpaceRow } from '../../sync-server/store/spaces';
import { loadTeamRow } from '../../sync-server/store/teams';

/**
 * What an operation asks policy, in the order its service asks, as data: the
 * expected answer of a cell is computed from these with policy's own
 * `decide` over resources built by `access/` from the stored rows (never
 * re-coded here), and said as REST says it (`apiErrorOf`).
 */

/** How a route words a refusal differently from `apiErrorOf` (kept rare; each use says why in the table). */
interface Wording {
  /** The status of any refusal of this check. */
  refusal?: number;
  /** The status when this check finds the resource invisible (e.g. a move target is a 400 "unknown parent"). */
  notFound?: number;
}

type Target =
  | { on: 'organization'; organizationId: string; action: OrganizationAction }
  | { on: 'space'; spaceId: string; action: SpaceAction }
  | { on: 'collection'; collectionId: string; action: CollectionAction }
  | { on: 'change-request'; spaceId: string; changeRequestId: string; action: ChangeRequestAction }
  | { on: 'discussion'; spaceId: string; changeRequestId?: string; action: DiscussionAction }
  | { on: 'post'; spaceId: string; changeRequestId?: string; authorId: string; action: PostAction }
  | { on: 'site'; organizationId: string; action: SiteAction }
  | { on: 'team'; organizationId: string; teamId: string; action: TeamAction }
  | { on: 'instance'; action: InstanceAction };

/** One question an operation asks policy. */
export type Check = Target & Wording;

/** Builders of checks, named after the resource they ask about. */
export const ask = {
  organization: (organizationId: string, action: OrganizationAction, w: Wording = {}): Check => ({
    on: 'organization',
    organizationId,
    action,
    ...w,
  }),
  space: (spaceId: string, action: SpaceAction, w: Wording = {}): Check => ({ on: 'space', spaceId, action, ...w }),
  collection: (collectionId: string, action: CollectionAction, w: Wording = {}): Check => ({
    on: 'collection',
    collectionId,
    action,
    ...w,
  }),
  changeRequest: (spaceId: string, changeRequestId: string, action: ChangeRequestAction): Check => ({
    on: 'change-request',
    spaceId,
    changeRequestId,
    action,
  }),
  discussion: (spaceId: string, changeRequestId: string | undefined, action: DiscussionAction): Check => ({
    on: 'discussion',
    spaceId,
    changeRequestId,
    action,
  }),
  post: (spaceId: string, changeRequestId: string | undefined, authorId: string, action: PostAction): Check => ({
    on: 'post',
    spaceId,
    changeRequestId,
    authorId,
    action,
  }),
  site: (organizationId: string, action: SiteAction): Check => ({ on: 'site', organizationId, action }),
  instance: (action: InstanceAction): Check => ({ on: 'instance', action }),
  team: (organizationId: string, teamId: string, action: TeamAction): Check => ({
    on: 'team',
    organizationId,
    teamId,
    action,
  }),
};

/** The stored resource a check is about, and the organization whose member the caller must be for it. */
async function resolve(
  db: Queryable,
  check: Exclude<Check, { on: 'instance' }>,
  userId: string,
): Promise<{ org: string; resource: Resource }> {
  const spaceRow = async (spaceId: string) => {
    const row = await loadSpaceRow(db, spaceId);
    if (!row) throw new Error(`matrix: no space ${spaceId}`);
    return row;
  };
  const crRow = async (spaceId: string, changeRequestId: string) => {
    const row = await findChangeRequest(db, spaceId, changeRequestId);
    if (!row) throw new Error(`matrix: no change request ${changeRequestId}`);
    return row;
  };
  switch (check.on) {
    case 'organization':
      return { org: check.organizationId, resource: organization(check.organizationId) };
    case 'site':
      return { org: check.organizationId, resource: siteResource(check.organizationId) };
    case 'team': {
      const row = await loadTeamRow(db, check.organizationId, userId, check.teamId);
      if (!row) throw new Error(`matrix: no team ${check.teamId}`);
      return { org: check.organizationId, resource: teamResource(row) };
    }
    case 'space': {
      const row = await spaceRow(check.spaceId);
      return { org: row.organization_id, resource: spaceResource(row) };
    }
    case 'collection': {
      const row = await loadCollectionRow(db, check.collectionId);
      if (!row) throw new Error(`matrix: no collection ${check.collectionId}`);
      return { org: row.organization_id, resource: collectionResource(row) };
    }
    case 'change-request': {
      const space = await spaceRow(check.spaceId);
      const cr = await crRow(check.spaceId, check.changeRequestId);
      return { org: space.organization_id, resource: changeRequestResource(cr, space) };
    }
    case 'discussion':
    case 'post': {
      const space = await spaceRow(check.spaceId);
      const cr = check.changeRequestId ? await crRow(check.spaceId, check.changeRequestId) : undefined;
      const discussion = discussionResource(space, cr);
      return {
        org: space.organization_id,
        resource: check.on === 'post' ? { type: 'post', discussion, authorId: check.authorId } : discussion,
      };
    }
  }
}

/** Policy's answer to one check for `userId`, over the resource as stored now. */
export async function decisionOf(db: Queryable, userId: string, check: Check): Promise<Decision> {
  if (check.on === 'instance') {
    const [user] = await db.query<{ instance_admin: boolean }>('SELECT instance_admin FROM users WHERE id = $1', [
      userId,
    ]);
    return decideInstance({ instanceAdmin: user?.instance_admin === true }, check.action);
  }
  const { org, resource } = await resolve(db, check, userId);
  return decide(await loadActor(db, org, userId), check.action as never, resource);
}

/** What a cell expects, and which answer of policy says so (for failure reports). */
export interface Expectation {
  status: number;
  because: string;
}

/**
 * The status `userId` must get from an operation whose service asks `checks`
 * in order: the first refusal as REST words it, else `success`. A DELETE of
 * what the caller may not see answers like a DELETE of what is gone: `success`.
 */
export async function expectedOutcome(
  db: Queryable,
  userId: string,
  checks: Check[],
  method: string,
  success: number,
): Promise<Expectation> {
  for (const check of checks) {
    const decision = await decisionOf(db, userId, check);
    if (decision.allowed) continue;
    const because = `${check.on} ${check.action}: ${decision.reason}`;
    if (decision.reason === 'not-found') {
      if (check.notFound !== undefined) return { status: check.notFound, because };
      if (method === 'DELETE') return { status: success, because };
    }
    return { status: check.refusal ?? apiErrorOf(decision).status, because };
  }
  return { status: success, because: 'allowed' };
}
