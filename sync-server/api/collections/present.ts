import type { AppContext } from '../../context';
import type { ContentNode } from '../../policy/access';
import { collectionPermissions } from '../../policy/permissions';
import type { RoleOrNone } from '../../policy/roles';

export interface CollectionRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: string | null;
  position: string;
}

export const COLLECTION_COLUMNS = 'id, organization_id, parent_id, title, description, default_level, position';

/** The policy view of a collection row. */
export function collectionNode(c: CollectionRow): ContentNode {
  return {
    type: 'collection',
    id: c.id,
    organizationId: c.organization_id,
    parentId: c.parent_id,
    defaultLevel: c.default_level,
  };
}

/** Row -> API `Collection`, with the caller's permissions. */
export function presentCollection(ctx: AppContext, c: CollectionRow, role: RoleOrNone) {
  return {
    object: 'collection' as const,
    id: c.id,
    title: c.title,
    ...(c.description !== null ? { description: c.description } : {}),
    organization: c.organization_id,
    ...(c.parent_id ? { parent: c.parent_id } : {}),
    defaultLevel: c.default_level as 'inherit' | null,
    urls: { location: ctx.urls.api(`/collections/${c.id}`), app: ctx.urls.app(`/o/${c.organization_id}/c/${c.id}`) },
    permissions: collectionPermissions(role),
  };
}
