import type { SpaceRevisionHook } from '../docs/snapshots';
import type { Queryable } from '../store/db';
import {
  findInstallationRow,
  installationsOnContent,
  type ContentInstallationRow,
  type ContentKind,
  type InstallationRow,
} from '../store/integration-installations';
import { findIntegration, type IntegrationRow } from '../store/integrations';
import type { IntegrationDispatcher } from './dispatcher';
import type { DispatcherDeps } from './types';

/**
 * What causes GitBook-generated events, queued in the transaction of the change (so an event is
 * sent if and only if its change is committed). Only to installations that are `active`: a
 * `pending` one (a required configuration property missing) or a `paused` one gets nothing.
 */

/** The state before an update, GitBook's `previous` of a setup event. */
export interface PreviousState {
  status: string;
  configuration: Record<string, unknown>;
}

export interface Triggers {
  /** `installation_setup`: an installation in an organization was made or configured. */
  installationSetup(
    tx: Queryable,
    integration: IntegrationRow,
    installation: InstallationRow,
    previous?: PreviousState,
  ): Promise<void>;
  /** `space_installation_setup` / `site_installation_setup`. */
  contentInstallationSetup(
    tx: Queryable,
    kind: ContentKind,
    integration: IntegrationRow,
    row: ContentInstallationRow,
    previous?: PreviousState,
  ): Promise<void>;
  /** `installation_deleted`: an installation was uninstalled (its row, as it was, deleted in `tx`). */
  installationDeleted(tx: Queryable, integration: IntegrationRow, installation: InstallationRow): Promise<void>;
  /** `space_installation_deleted` / `site_installation_deleted` (the row, as it was, deleted in `tx`). */
  contentInstallationDeleted(
    tx: Queryable,
    kind: ContentKind,
    integration: IntegrationRow,
    row: ContentInstallationRow,
  ): Promise<void>;
  /** `space_content_updated` after each new revision of a space (snapshots.onSpaceRevision). */
  spaceRevisionHook: SpaceRevisionHook;
}

export function createTriggers(
  deps: Pick<DispatcherDeps, 'db' | 'present'>,
  dispatcher: IntegrationDispatcher,
): Triggers {
  const { present } = deps;
  const presentContent = (kind: ContentKind, integration: IntegrationRow, row: ContentInstallationRow) =>
    kind === 'space' ? present.spaceInstallation(integration, row) : present.siteInstallation(integration, row);

  /** `<kind>_installation_<what>` of a space (site) installation, if its organization's installation is active. */
  const queueContentEvent = async (
    tx: Queryable,
    kind: ContentKind,
    integration: IntegrationRow,
    row: ContentInstallationRow,
    what: 'setup' | 'deleted',
    fields: Record<string, unknown>,
  ) => {
    const installation = await findInstallationRow(tx, integration.name, row.installation_id);
    if (!installation || present.installation(integration, installation).status !== 'active') return;
    const key = kind === 'space' ? 'spaceId' : 'siteId';
    await dispatcher.queue(tx, {
      integrationName: integration.name,
      installationId: row.installation_id,
      organizationId: installation.organization_id,
      [key]: row.target_id,
      event: {
        type: `${kind}_installation_${what}`,
        installationId: row.installation_id,
        [key]: row.target_id,
        ...fields,
      },
    });
  };

  return {
    async installationSetup(tx, integration, installation, previous) {
      const { status } = present.installation(integration, installation);
      if (status !== 'active') return;
      await dispatcher.queue(tx, {
        integrationName: integration.name,
        installationId: installation.id,
        organizationId: installation.organization_id,
        event: {
          type: 'installation_setup',
          installationId: installation.id,
          status,
          ...(previous ? { previous } : {}),
        },
      });
    },

    async contentInstallationSetup(tx, kind, integration, row, previous) {
      const { status } = presentContent(kind, integration, row);
      if (status !== 'active') return;
      await queueContentEvent(tx, kind, integration, row, 'setup', { status, ...(previous ? { previous } : {}) });
    },

    // Only what was set up is told of its deletion: a pending or paused installation got no setup event.
    async installationDeleted(tx, integration, installation) {
      const { status, configuration } = present.installation(integration, installation);
      if (status !== 'active') return;
      await dispatcher.queue(tx, {
        integrationName: integration.name,
        installationId: installation.id,
        organizationId: installation.organization_id,
        event: { type: 'installation_deleted', installationId: installation.id, previous: { configuration } },
      });
    },

    async contentInstallationDeleted(tx, kind, integration, row) {
      const { status, configuration } = presentContent(kind, integration, row);
      if (status !== 'active') return;
      await queueContentEvent(tx, kind, integration, row, 'deleted', { previous: { configuration } });
    },

    spaceRevisionHook: {
      // Which installations are on the space, read before the revision's transaction (PGlite holds
      // its one connection for the whole transaction); a space with none costs one query.
      async prepare(spaceId, _snapshot, editors) {
        const rows = (await installationsOnContent(deps.db, 'space', spaceId)).filter((r) => !r.trashed);
        if (rows.length === 0) return async () => undefined;
        return async (tx) => {
          const revision = (
            await tx.query<{ revision: string }>('SELECT revision FROM spaces WHERE id = $1', [spaceId])
          )[0]?.revision;
          if (!revision) return;
          const updatedBy = await usersInOrder(tx, editors);
          for (const row of rows) {
            const integration = await findIntegration(tx, row.integration_name);
            const installation = integration && (await findInstallationRow(tx, integration.name, row.installation_id));
            if (!integration || !installation) continue;
            if (present.installation(integration, installation).status !== 'active') continue;
            if (present.spaceInstallation(integration, row).status !== 'active') continue;
            await dispatcher.queue(tx, {
              integrationName: integration.name,
              installationId: installation.id,
              organizationId: installation.organization_id,
              spaceId,
              event: {
                type: 'space_content_updated',
                installationId: installation.id,
                spaceId,
                revisionId: revision,
                updatedBy: updatedBy.map((u) => present.user(u)),
              },
            });
          }
        };
      },
    },
  };
}

/** The users of `ids` that exist (an integration's bot is no user row), in the order of `ids`. */
async function usersInOrder(tx: Queryable, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await tx.query<{ id: string; display_name: string; email: string | null; photo_url: string | null }>(
    'SELECT id, display_name, email, photo_url FROM users WHERE id = ANY($1)',
    [ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
