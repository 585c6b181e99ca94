import type { Route } from '../routes';
import { DeletePanel } from './settings/delete-panel';
import { GeneralForm } from './settings/general-form';
import { PublishingPanel } from './settings/publishing-panel';
import { ScreenIntro } from './settings/screen-intro';
import { SitePage } from './structure/site-page';
import './sites.css';

/** A docs site's settings: publishing, title, custom domain, and deleting it. */
export default function SiteSettingsScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return (
    <SitePage orgId={orgId} siteId={siteId} label="Settings" manage testid="site-settings-screen">
      {(site) => (
        <>
          <ScreenIntro site={site} testid="site-settings-intro">
            The site’s name, address and publishing.
          </ScreenIntro>
          <PublishingPanel orgId={orgId} site={site} />
          <GeneralForm orgId={orgId} site={site} />
          {site.permissions.admin && <DeletePanel orgId={orgId} site={site} />}
        </>
      )}
    </SitePage>
  );
}
