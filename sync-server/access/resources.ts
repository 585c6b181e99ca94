import type { ContentNode } from '../policy/access-index';
import type { ChangeRequestResource } from '../policy/change-request';
import type { CollectionResource, SpaceResource } from '../policy/content';
import type { DiscussionResource } from '../policy/discussion';
import type { ChangeRequestRow } from '../store/change-requests';
import type { SpaceRow } from '../store/spaces';

/** Rows -> the facts policy decides on. */

/** The content-tree node of a space row. */
export function spaceNode(s: SpaceRow): ContentNode {
  return {
    type: 'space',
    id: s.id,
    organizationId: s.organization_id,
    parentId: s.parent_id,
    defaultLevel: s.default_level,
  };
}

/** A space row as a policy resource. */
export function spaceResource(s: SpaceRow): SpaceResource {
  return { type: 'space', node: spaceNode(s), deleted: s.deleted_at !== null, locked: s.edit_mode === 'locked' };
}

/** The content-tree node of a collection row. */
export function collectionNode(c: {
  id: string;
  organization_id: string;
  parent_id: string | null;
  default_level: string | null;
}): ContentNode {
  return {
    type: 'collection',
    id: c.id,
    organizationId: c.organization_id,
    parentId: c.parent_id,
    defaultLevel: c.default_level,
  };
}

/** A collection row as a policy resource. */
export function collectionResource(c: Parameters<typeof collectionNode>[0]): CollectionResource {
  return { type: 'collection', node: collectionNode(c) };
}

/** A change request row (and its space's row) as a policy resource. */
export function changeRequestResource(cr: Pick<ChangeRequestRow, 'status'>, space: SpaceRow): ChangeRequestResource {
  return { type: 'change-request', space: spaceResource(space), status: cr.status };
}

/** The discussion of a space, or of one of its change requests. */
export function discussionResource(space: SpaceRow, cr?: Pick<ChangeRequestRow, 'status'>): DiscussionResource {
  return { type: 'discussion', owner: cr ? changeRequestResource(cr, space) : spaceResource(space) };
}
