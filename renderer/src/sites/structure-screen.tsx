import type { Route } from '../routes';
import { SitePage } from './structure/site-page';
import { StructureEditor } from './structure/structure-editor';
import './sites.css';

/**
 * A site's structure (GitBook's site structure settings): the spaces it publishes, its sections
 * and section groups (the published site's tabs) and each section's variants, in order, with the
 * defaults readers land on. Those who may manage sites change it here; others only see it.
 */
export default function SiteStructureScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return (
    <SitePage orgId={orgId} siteId={siteId} label="Structure" testid="site-structure-screen">
      {(site) => <StructureEditor orgId={orgId} site={site} />}
    </SitePage>
  );
}
