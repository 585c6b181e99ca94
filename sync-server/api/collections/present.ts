import type { AppContext } from '../../context';
import { collectionPermissions } from '../../policy/content';
import type { RoleOrNone } from '../../policy/roles';
import { collectionResource } from '../../access/resources';
import type { CollectionRow } from '../../store/collections';

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
    permissions: collectionPermissions({ role }, collectionResource(c)),
  };
}
