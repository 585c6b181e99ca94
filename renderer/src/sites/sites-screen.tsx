import { useState } from 'preact/hooks';
import type { Site } from '../org/org-api';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { NewSiteDialog } from './structure/new-site-dialog';
import { NotForGuests } from './structure/not-for-guests';
import { SiteStatusBadge, visibilityLabel } from './structure/site-status';
import './sites.css';

/**
 * The organization's docs sites (GitBook's "Docs sites"): each with its status, visibility and
 * address, and "New site" for those who may manage sites. Read through the organization's site
 * list store, so a created or renamed site shows here at once.
 */
export default function SitesScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { stores } = useApp();
  const org = stores.org.peek(orgId);
  // Guests see no sites (the API answers 404): say so instead of failing to load.
  if (org && !org.permissions.listMembers) return <NotForGuests what="docs sites" />;
  return <SitesList orgId={orgId} canCreate={org?.permissions.createContent ?? false} />;
}

function SitesList({ orgId, canCreate }: { orgId: string; canCreate: boolean }) {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.orgSites, orgId);
  const [creating, setCreating] = useState(false);
  return (
    <div class="sites-screen">
      <div class="org-panel-header sites-header">
        <h1 class="org-heading" data-testid="sites-title">
          Docs sites
        </h1>
        {canCreate && (
          <button type="button" class="primary" data-testid="new-site" onClick={() => setCreating(true)}>
            <Icon name="plus" />
            New site
          </button>
        )}
      </div>
      <p class="muted">Sites publish spaces of this organization as documentation for readers.</p>
      <section class="org-panel" aria-label="Docs sites" data-testid="site-list-panel">
        <AsyncSection state={state} what="the docs sites" retry={retry}>
          {(sites) =>
            sites.length === 0 ? (
              <EmptyState
                message={
                  canCreate
                    ? 'No docs sites yet. A site publishes one or more spaces for readers.'
                    : 'No docs sites yet.'
                }
                action={
                  canCreate ? { label: 'New site', run: () => setCreating(true), testid: 'empty-new-site' } : undefined
                }
              />
            ) : (
              <ul class="org-list site-list" data-testid="site-list">
                {sites.map((site) => (
                  <SiteRow key={site.id} orgId={orgId} site={site} />
                ))}
              </ul>
            )
          }
        </AsyncSection>
      </section>
      {creating && <NewSiteDialog orgId={orgId} onClose={() => setCreating(false)} />}
    </div>
  );
}

function SiteRow({ orgId, site }: { orgId: string; site: Site & { hostname?: string } }) {
  const address = site.urls.published ?? site.urls.preview;
  return (
    <li class="site-row" data-testid="site-row" data-site-id={site.id}>
      <div class="site-row-main">
        <Link to={{ view: 'site', orgId, siteId: site.id }} class="org-item-link" data-testid="site-link">
          <Icon name="globe" />
          {site.title || 'Untitled site'}
        </Link>
        <span class="site-row-address muted" title={address}>
          {site.hostname ?? address.replace(/^https?:\/\//, '')}
        </span>
      </div>
      <span class="site-row-facts">
        <SiteStatusBadge published={site.published} />
        <span class="badge" data-testid="site-visibility">
          {visibilityLabel(site.visibility)}
        </span>
        <span class="muted site-row-count">{site.siteSpaces === 1 ? '1 space' : `${site.siteSpaces} spaces`}</span>
      </span>
    </li>
  );
}
