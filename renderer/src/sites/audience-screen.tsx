import type { Route } from '../routes';
import { ShareLinkPanel } from './audience/share-link-panel';
import { VisibilityForm } from './audience/visibility-form';
import { VisitorAuthPanel } from './audience/visitor-auth-panel';
import { ScreenIntro } from './settings/screen-intro';
import { SitePage } from './structure/site-page';
import './sites.css';

/** Who may read a docs site: public, unlisted, by share link, or authenticated visitors. */
export default function SiteAudienceScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return (
    <SitePage orgId={orgId} siteId={siteId} label="Audience" manage testid="site-audience-screen">
      {(site) => (
        <>
          <ScreenIntro site={site} testid="site-audience-intro">
            Who can read the published site.
          </ScreenIntro>
          <VisibilityForm orgId={orgId} site={site} />
          {site.visibility === 'share-link' && <ShareLinkPanel site={site} />}
          {site.visibility === 'visitor-auth' && <VisitorAuthPanel orgId={orgId} site={site} />}
        </>
      )}
    </SitePage>
  );
}
