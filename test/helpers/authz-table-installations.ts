import type { OrganizationAction } from '../../sync-server/policy/organization';
import type { OperationTable } from './authz-cases';
import { ask, type Check } from './authz-expect';
import { must, type World } from './authz-fixture';
import { fresh, type Params } from './authz-fresh';

/**
 * Integration installations. In an organization: its admins install, read, configure and
 * uninstall (`manage-installations`), and the admins of the organization that publishes the
 * integration list its installations everywhere (`list-integration-installations`; here the
 * matrix organization publishes and installs). A private integration is unknown (404) to whoever
 * may not see it, so the publisher's lists run on a private one: another organization's admin
 * learns nothing of it. On a space: the space's admins (`administer`, so
 * the guest administering `root` installs on its spaces). On a site: the site policy's
 * `install-integration`. Which integrations are installed on a space or site: who sees it.
 */

const inOrg =
  (action: OrganizationAction) =>
  (w: World): Check[] => [ask.organization(w.organizationId, action)];
const onSpace = (_w: World, p: Params): Check[] => [ask.space(p.spaceId!, 'administer')];
const onSite = (w: World): Check[] => [
  ask.site(w.organizationId, 'view'),
  ask.site(w.organizationId, 'install-integration'),
];

let counter = 0;

/** Publishes an integration of the matrix organization (on every target), as the instance admin. */
async function publish(w: World, name: string, visibility: 'public' | 'private' = 'public'): Promise<void> {
  await must(w.t, 'POST', `/integrations/${name}`, {
    title: 'Matrix integration',
    description: 'Published by the authorization matrix',
    visibility,
    target: 'all',
    scopes: [],
    script: 'export default {}',
    organization: w.organizationId,
  });
}

async function installed(w: World, integrationName: string): Promise<Params> {
  const installation = await must<{ id: string }>(w.t, 'POST', `/integrations/${integrationName}/installations`, {
    organization: w.organizationId,
  });
  return { integrationName, installationId: installation.id };
}

const worlds = new WeakMap<World, Promise<Params>>();

/** The world's integration, installed in its organization, on its space and on its site; made on first use. */
function matrixInstallation(w: World): Promise<Params> {
  let made = worlds.get(w);
  if (!made) {
    made = (async () => {
      await publish(w, 'matrix-installed');
      const p = await installed(w, 'matrix-installed');
      const base = `/integrations/${p.integrationName}/installations/${p.installationId}`;
      await must(w.t, 'POST', `${base}/spaces`, { space: w.spaceId });
      await must(w.t, 'POST', `${base}/sites`, { siteId: w.siteId });
      return p;
    })();
    worlds.set(w, made);
  }
  return made;
}

/** An integration not installed anywhere yet (every allowed install is a 201). */
async function freshIntegration(w: World, visibility: 'public' | 'private' = 'public'): Promise<Params> {
  const integrationName = `matrix-to-install-${++counter}`;
  await publish(w, integrationName, visibility);
  return { integrationName };
}

const privates = new WeakMap<World, Promise<Params>>();

/**
 * A private integration of the matrix organization, installed there, on its space and on its site:
 * for the publisher's lists, which a private integration hides (404) from whoever may not see it.
 */
function privateInstallation(w: World): Promise<Params> {
  let made = privates.get(w);
  if (!made) {
    made = (async () => {
      await publish(w, 'matrix-private-installed', 'private');
      const p = await installed(w, 'matrix-private-installed');
      const base = `/integrations/${p.integrationName}/installations/${p.installationId}`;
      await must(w.t, 'POST', `${base}/spaces`, { space: w.spaceId });
      await must(w.t, 'POST', `${base}/sites`, { siteId: w.siteId });
      return p;
    })();
    privates.set(w, made);
  }
  return made;
}

/** Seeing a private integration of the matrix organization; a refusal is "no such integration". */
const sees = (w: World): Check => ask.organization(w.organizationId, 'list-integrations', { refusal: 404 });
const ownerAdmin = (w: World): Check[] => [
  sees(w),
  ask.organization(w.organizationId, 'list-integration-installations'),
];

/** An installation of its own, uninstalled by the call. */
async function freshInstallation(w: World): Promise<Params> {
  return installed(w, (await freshIntegration(w)).integrationName!);
}

/** A fresh space in `root`, and a fresh site, for the world's installation to be installed on. */
const withFreshSpace = async (w: World): Promise<Params> => ({
  ...(await matrixInstallation(w)),
  ...(await fresh.space(w)),
});
const withFreshSite = async (w: World): Promise<Params> => ({
  ...(await matrixInstallation(w)),
  ...(await fresh.site(w)),
});

async function freshSpaceInstallation(w: World): Promise<Params> {
  const p = await withFreshSpace(w);
  await must(w.t, 'POST', `/integrations/${p.integrationName}/installations/${p.installationId}/spaces`, {
    space: p.spaceId,
  });
  return p;
}

async function freshSiteInstallation(w: World): Promise<Params> {
  const p = await withFreshSite(w);
  await must(w.t, 'POST', `/integrations/${p.integrationName}/installations/${p.installationId}/sites`, {
    siteId: p.siteId,
  });
  return p;
}

export const INSTALLATION_OPERATIONS: OperationTable = {
  installIntegration: [
    {
      label: 'public',
      params: (w) => freshIntegration(w),
      body: (w) => ({ organization: w.organizationId }),
      checks: inOrg('manage-installations'),
    },
    {
      label: 'private',
      params: (w) => freshIntegration(w, 'private'),
      body: (w) => ({ organization: w.organizationId }),
      checks: (w) => [sees(w), ask.organization(w.organizationId, 'manage-installations')],
    },
  ],
  listIntegrationInstallations: { params: privateInstallation, checks: ownerAdmin },
  // Only the integration's own token mints installation tokens (GitBook's `integration` security scheme): every
  // human who sees the integration is refused (403). No matrix caller is the instance admin, so the instance check
  // says "refused" for each of them; test/api/integration-tokens.test.ts shows the instance admin refused as well.
  createIntegrationInstallationToken: { params: matrixInstallation, checks: () => [ask.instance('approve-domains')] },
  getIntegrationInstallationById: { params: matrixInstallation, checks: inOrg('manage-installations') },
  updateIntegrationInstallation: {
    params: matrixInstallation,
    body: () => ({ externalIds: [] }),
    checks: inOrg('manage-installations'),
  },
  uninstallIntegration: { params: freshInstallation, checks: inOrg('manage-installations'), deleted: 205 },
  getOrganizationIntegrationStatus: { params: matrixInstallation, checks: inOrg('list-integrations') },

  installIntegrationOnSpace: { params: withFreshSpace, body: (_w, p) => ({ space: p.spaceId }), checks: onSpace },
  listIntegrationInstallationSpaces: { params: matrixInstallation, checks: inOrg('manage-installations') },
  getIntegrationSpaceInstallation: { params: matrixInstallation, checks: onSpace },
  updateIntegrationSpaceInstallation: {
    params: matrixInstallation,
    body: () => ({ externalIds: [] }),
    checks: onSpace,
  },
  uninstallIntegrationFromSpace: { params: freshSpaceInstallation, checks: onSpace, deleted: 205 },
  listIntegrationSpaceInstallations: { params: privateInstallation, checks: ownerAdmin },

  installIntegrationOnSite: { params: withFreshSite, body: (_w, p) => ({ siteId: p.siteId }), checks: onSite },
  listIntegrationInstallationSites: { params: matrixInstallation, checks: inOrg('manage-installations') },
  getIntegrationSiteInstallation: { params: matrixInstallation, checks: onSite },
  updateIntegrationSiteInstallation: {
    params: matrixInstallation,
    body: () => ({ externalIds: [] }),
    checks: onSite,
  },
  uninstallIntegrationFromSite: { params: freshSiteInstallation, checks: onSite, deleted: 205 },
  listIntegrationSiteInstallations: { params: privateInstallation, checks: ownerAdmin },

  listSpaceIntegrations: { params: matrixInstallation, checks: (w) => [ask.space(w.spaceId, 'view')] },
  listSiteIntegrations: { params: matrixInstallation, checks: (w) => [ask.site(w.organizationId, 'view')] },
  listOrganizationIntegrationsStatus: { params: matrixInstallation, checks: inOrg('list-integrations') },
};
