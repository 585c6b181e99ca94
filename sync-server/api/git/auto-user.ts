import type { AppContext } from '../../context';
import { loadActor } from '../../access/actor';
import { spaceResource } from '../../access/resources';
import { decide } from '../../policy';
import type { GitSyncRow } from '../../store/git-sync';
import type { SpaceRow } from '../../store/spaces';

/**
 * Who an automatic import (webhook, poll) runs as: the person who last saved the space's Git sync
 * settings, as long as they may still sync it. An admin who left, or lost the space's admin
 * role, no longer writes to it in their name: the automatic imports stop until an admin saves
 * the settings again.
 */
export async function autoImportUser(ctx: AppContext, row: GitSyncRow, space: SpaceRow): Promise<string | undefined> {
  if (!row.auto_user_id) return undefined;
  const actor = await loadActor(ctx.db, space.organization_id, row.auto_user_id);
  return decide(actor, 'git-sync', spaceResource(space)).allowed ? row.auto_user_id : undefined;
}

/** Why automatic imports stopped (for the webhook's answer and the log). */
export const NO_AUTO_USER =
  'automatic imports are paused: the person who saved the Git sync settings can no longer sync this space; an admin must save them again';
