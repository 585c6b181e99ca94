import type { Route } from '../routes';
import { SitePage } from '../sites/structure/site-page';
import { InstalledHere } from './installed-here';
import '../sites/sites.css';

/** A docs site's integrations: those running on it, and, for who may install there, the organization's others. */
export default function SiteIntegrationsScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return (
    <SitePage orgId={orgId} siteId={siteId} label="Integrations" testid="site-integrations-screen">
      {(site) => (
        <>
          <p class="muted site-screen-intro">
            Integrations add features to the published site: analytics, visitor sign-in, widgets.
            {!site.permissions.installIntegration && ' Administrators of the organization install them.'}
          </p>
          <section class="org-panel" aria-label="Integrations of the site">
            <InstalledHere target={{ orgId, kind: 'site', id: siteId }} manage={site.permissions.installIntegration} />
          </section>
        </>
      )}
    </SitePage>
  );
}
