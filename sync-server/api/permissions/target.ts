import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { decide, type Actor } from '../../policy';
import { loadActor } from '../../access/actor';
import { collectionResource, spaceResource } from '../../access/resources';
import type { GrantTarget } from '../../store/content-grants';
import { loadSpaceRow } from '../../store/spaces';
import { loadCollectionRow } from '../../store/collections';
import { enforce } from '../authorize';
import { requireCollection } from '../collections/service';
import { requireSpace } from '../spaces/service';

/** A space or collection whose direct grants are read or changed, with the caller as an actor of its organization. */
export interface PermissionTarget {
  target: GrantTarget;
  organizationId: string;
  actor: Actor;
}

export type TargetAction = 'view' | 'manage-permissions';

/** The target if policy lets the caller do `action` to it: 404 when they cannot see it, 403 when not an admin. */
export async function requireTarget(
  ctx: AppContext,
  p: Principal,
  target: GrantTarget,
  action: TargetAction,
): Promise<PermissionTarget> {
  const { row, actor } =
    target.type === 'space'
      ? await requireSpace(ctx, p, target.id, action)
      : await requireCollection(ctx, p, target.id, action);
  return { target, organizationId: row.organization_id, actor };
}

/**
 * For DELETEs: like requireTarget, but a target that does not exist or that
 * the caller cannot see is undefined (a quiet 204, as every DELETE of what is
 * not there), while a visible one the caller may not manage is still a 403.
 */
export async function targetForDelete(
  ctx: AppContext,
  p: Principal,
  target: GrantTarget,
): Promise<PermissionTarget | undefined> {
  const row =
    target.type === 'space' ? await loadSpaceRow(ctx.db, target.id) : await loadCollectionRow(ctx.db, target.id);
  if (!row) return undefined;
  const actor = await loadActor(ctx.db, row.organization_id, p.userId);
  const decision =
    target.type === 'space'
      ? decide(actor, 'manage-permissions', spaceResource(row as Parameters<typeof spaceResource>[0]))
      : decide(actor, 'manage-permissions', collectionResource(row as Parameters<typeof collectionResource>[0]));
  if (!decision.allowed && decision.reason === 'not-found') return undefined;
  enforce(decision);
  return { target, organizationId: row.organization_id, actor };
}
