import { decide } from '../../policy';
import { loadActor } from '../../access/actor';
import { spaceNode, spaceResource } from '../../access/resources';
import { loadSpaceRow, type SpaceRow } from '../../store/spaces';
import { apiErrorOf } from '../authorize';
import { changeRequestCountersFor } from '../spaces/counters';
import { presentSpace } from '../spaces/present';
import { requireSpace } from '../spaces/service';
import { actorsFor, type ContentAccess } from './content-installations';
import { presentSpaceInstallation } from './present';

/**
 * Installations on spaces: who may install on a space is the space's policy (`administer`, the
 * space's `permissions.installIntegration`), so an admin of the space who is no admin of the
 * organization installs there too.
 */

type SpaceObject = ReturnType<typeof presentSpace>;

export const SPACE_ACCESS: ContentAccess<ReturnType<typeof presentSpaceInstallation<SpaceObject>>, SpaceObject> = {
  kind: 'space',

  async requireAdmin(ctx, p, spaceId) {
    const { row } = await requireSpace(ctx, p, spaceId, 'administer');
    return row.organization_id;
  },

  async adminForDelete(ctx, p, spaceId) {
    const row = await loadSpaceRow(ctx.db, spaceId);
    if (!row) return undefined;
    const decision = decide(await loadActor(ctx.db, row.organization_id, p.userId), 'administer', spaceResource(row));
    if (decision.allowed) return row.organization_id;
    if (decision.reason === 'not-found') return undefined;
    throw apiErrorOf(decision);
  },

  async objects(ctx, p, spaceIds) {
    const rows = (await Promise.all(spaceIds.map((id) => loadSpaceRow(ctx.db, id)))).filter(
      (r): r is SpaceRow => r !== undefined,
    );
    const actors = await actorsFor(
      ctx,
      p,
      rows.map((r) => r.organization_id),
    );
    const counters = await changeRequestCountersFor(
      ctx.db,
      rows.map((r) => r.id),
    );
    const role = (row: SpaceRow) => actors.get(row.organization_id)!.access.roleOf(spaceNode(row));
    return new Map(rows.map((row) => [row.id, presentSpace(ctx, row, role(row), counters.get(row.id))]));
  },

  present: (ctx, integration, row, space) => presentSpaceInstallation(ctx, integration, row, space),
};
