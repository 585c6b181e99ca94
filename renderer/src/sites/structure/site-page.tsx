import type { ComponentChildren } from 'preact';
import { useApp } from '../../screens/context';
import { AsyncSection } from '../../ui/kit/async-section';
import { useResource, useWindowTitle } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import { Link } from '../../ui/kit/link';
import type { SiteDetails } from '../site-api';
import { NotForGuests } from './not-for-guests';
import { SiteStatusBadge } from './site-status';

/**
 * The body of one of a site's screens: the site from the store (loading, error with Retry), its
 * heading, then the screen's own content. Guests of the organization are told they cannot see it
 * (the API answers them 404). `label` names the screen in the window title.
 */
export function SitePage(props: {
  orgId: string;
  siteId: string;
  label?: string;
  testid: string;
  /**
   * A screen of the site's settings (customization, audience, settings): shown only to those who
   * manage the site (the "create" role); anyone else is told so, and sees none of it.
   */
  manage?: boolean;
  children: (site: SiteDetails) => ComponentChildren;
}) {
  const { stores } = useApp();
  const org = stores.org.peek(props.orgId);
  if (org && !org.permissions.listMembers) return <NotForGuests what="docs sites" />;
  return <SiteLoaded {...props} />;
}

function SiteLoaded(props: Parameters<typeof SitePage>[0]) {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.site, [props.orgId, props.siteId] as [string, string]);
  const site = 'data' in state ? state.data : undefined;
  const org = stores.org.peek(props.orgId);
  useWindowTitle(
    site ? [props.label, site.title || 'Untitled site', org?.title].filter(Boolean).join(' · ') : undefined,
  );
  return (
    <div class="site-page" data-testid={props.testid}>
      <AsyncSection state={state} what="the site" retry={retry}>
        {(site) => (
          <>
            <SiteHeading orgId={props.orgId} site={site} />
            {props.manage && !site.permissions.create ? (
              <div class="state state-empty" data-testid="site-settings-not-allowed">
                <p>
                  Only members with the Create role or higher see and change this site’s{' '}
                  {(props.label ?? 'settings').toLowerCase()}. Ask an admin of the organization if you need to.
                </p>
              </div>
            ) : (
              props.children(site)
            )}
          </>
        )}
      </AsyncSection>
    </div>
  );
}

/** "Docs sites /" and the site's title with its status. */
export function SiteHeading({ orgId, site }: { orgId: string; site: SiteDetails }) {
  return (
    <header class="site-heading">
      <p class="org-crumbs">
        <Link to={{ view: 'org', orgId, tab: 'sites' }} data-testid="crumb-sites">
          Docs sites
        </Link>{' '}
        /
      </p>
      <div class="site-heading-row">
        <h1 class="org-heading" data-testid="site-title">
          <Icon name="globe" size={22} />
          {site.title || 'Untitled site'}
        </h1>
        <SiteStatusBadge published={site.published} />
      </div>
    </header>
  );
}
