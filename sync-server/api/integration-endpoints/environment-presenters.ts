import type { AppContext } from '../../context';
import { loadActor } from '../../access/actor';
import { integrationBotId } from '../../identity/integration-tokens';
import type { EnvironmentPresenters } from '../../integrations/types';
import { loadOrganizationRow } from '../../store/organizations';
import { presentUser, type UserViewer } from '../system/present-user';
import { presentIntegration } from '../integrations/present';
import {
  presentInstallation,
  presentSiteInstallation,
  presentSpaceInstallation,
} from '../integration-installations/present';

/**
 * The API objects of an event's `environment`, presented by the same functions as the REST answers
 * (the dispatcher, a lower layer, gets them from server.ts): the Integration as its own bot sees it
 * (no role in the owner organization: `permissions.admin` false), and the installations as
 * GitBook's IntegrationInstallation, IntegrationSpaceInstallation (`space`: the id) and
 * IntegrationSiteInstallation.
 */
/** An integration sees users as a guest does: names and photos, not emails. */
const INTEGRATION_VIEWER: UserViewer = { userId: '', seesMemberDetails: false };

export function environmentPresenters(ctx: () => AppContext): EnvironmentPresenters {
  return {
    async integration(row) {
      const c = ctx();
      const owner = await loadOrganizationRow(c.db, row.organization_id);
      if (!owner) throw new Error(`The organization of integration "${row.name}" is gone`);
      const actor = await loadActor(c.db, row.organization_id, integrationBotId(row.name));
      return presentIntegration(c, row, owner, actor);
    },
    installation: (integration, row) => presentInstallation(ctx(), integration, row),
    spaceInstallation: (integration, row) => presentSpaceInstallation(ctx(), integration, row),
    siteInstallation: (integration, row) => presentSiteInstallation(ctx(), integration, row),
    user: (row) => presentUser(ctx(), INTEGRATION_VIEWER, row),
  };
}
