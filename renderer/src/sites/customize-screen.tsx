import type { Route } from '../routes';
import { AsyncSection } from '../ui/kit/async-section';
import { CustomizeForm } from './customize/customize-form';
import { SitePreview } from './customize/site-preview';
import { ScreenIntro } from './settings/screen-intro';
import { useSiteCustomization } from './settings/site-resource';
import type { SiteDetails } from './site-api';
import { SitePage } from './structure/site-page';
import './sites.css';

/** A docs site's look (colours, logo, favicon, font, header links, theme), beside a live preview. */
export default function SiteCustomizeScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return (
    <SitePage orgId={orgId} siteId={siteId} label="Customization" manage testid="site-customize-screen">
      {(site) => (
        <>
          <ScreenIntro site={site} testid="site-customize-intro">
            How the published site looks to its readers.
          </ScreenIntro>
          <Customization orgId={orgId} site={site} />
        </>
      )}
    </SitePage>
  );
}

function Customization({ orgId, site }: { orgId: string; site: SiteDetails }) {
  const { state, retry } = useSiteCustomization(orgId, site.id);
  return (
    <AsyncSection state={state} what="the customization" retry={retry}>
      {(stored) => (
        <div class="customize-layout">
          <CustomizeForm
            key={site.id}
            orgId={orgId}
            siteId={site.id}
            stored={stored}
            canEdit={site.permissions.create}
          />
          {/* Reloads after each saved change: every save gives the customization a new updatedAt. */}
          <SitePreview orgId={orgId} site={site} version={stored.updatedAt} />
        </div>
      )}
    </AsyncSection>
  );
}
