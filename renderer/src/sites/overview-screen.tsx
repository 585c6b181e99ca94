import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { navigationOf } from '../screens/registry';
import { confirmDialog } from '../ui/kit/dialog';
import { AsyncSection } from '../ui/kit/async-section';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import type { SiteDetails } from './site-api';
import { rootSiteSpaces, topLevelOf, type SiteStructure } from './structure/model';
import { SitePage } from './structure/site-page';
import { visibilityLabel } from './structure/site-status';
import { ActionError, useAction } from './structure/use-action';
import './sites.css';

/**
 * A site's overview: whether it is published and where (Open site), publish / unpublish for
 * those who manage sites, the spaces it publishes, and the way to its other screens.
 */
export default function SiteOverviewScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return (
    <SitePage orgId={orgId} siteId={siteId} testid="site-overview-screen">
      {(site) => (
        <>
          <PublishingPanel orgId={orgId} site={site} />
          <PublishedSpacesPanel orgId={orgId} site={site} />
          <QuickLinks orgId={orgId} siteId={siteId} />
        </>
      )}
    </SitePage>
  );
}

function PublishingPanel({ orgId, site }: { orgId: string; site: SiteDetails }) {
  const { stores } = useApp();
  const action = useAction();
  const canManage = site.permissions.create;
  const publish = () => action.run('publish the site', () => stores.setSitePublished(orgId, site.id, true));
  const unpublish = async () => {
    if (!(await confirmDialog(`Unpublish “${site.title}”? Readers can no longer open it.`, 'Unpublish'))) return;
    await action.run('unpublish the site', () => stores.setSitePublished(orgId, site.id, false));
  };
  const address = site.urls.published ?? site.urls.preview;
  return (
    <section class="org-panel" aria-labelledby="site-publishing-title" data-testid="site-publishing">
      <div class="org-panel-header">
        <h2 id="site-publishing-title">Publishing</h2>
        {canManage &&
          (site.published ? (
            <button type="button" data-testid="site-unpublish" disabled={action.busy} onClick={() => void unpublish()}>
              Unpublish
            </button>
          ) : (
            <button
              type="button"
              class="primary"
              data-testid="site-publish"
              disabled={action.busy}
              onClick={() => void publish()}
            >
              <Icon name="send" />
              Publish
            </button>
          ))}
      </div>
      <ActionError error={action.error} onDismiss={action.clear} />
      <dl class="org-facts">
        <dt>Status</dt>
        <dd data-testid="site-status-text">
          {site.published ? 'Published' : 'Not published: only members of the organization can preview it.'}
        </dd>
        <dt>Visibility</dt>
        <dd data-testid="site-visibility">{visibilityLabel(site.visibility)}</dd>
        <dt>{site.published ? 'Address' : 'Preview'}</dt>
        <dd class="site-address">
          <a href={address} target="_blank" rel="noopener" data-testid="site-address">
            {address}
          </a>
        </dd>
        {site.hostname && (
          <>
            <dt>Custom domain</dt>
            <dd data-testid="site-hostname">{site.hostname}</dd>
          </>
        )}
      </dl>
      <div class="site-open-row">
        <a class="site-open-link" href={address} target="_blank" rel="noopener" data-testid="site-open">
          <Icon name="external-link" />
          {site.published ? 'Open site' : 'Open preview'}
        </a>
      </div>
    </section>
  );
}

function PublishedSpacesPanel({ orgId, site }: { orgId: string; site: SiteDetails }) {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.sites.structure, [orgId, site.id] as [string, string]);
  return (
    <section class="org-panel" aria-labelledby="site-spaces-title" data-testid="site-spaces-panel">
      <div class="org-panel-header">
        <h2 id="site-spaces-title">Published spaces</h2>
        <Link to={{ view: 'site', orgId, siteId: site.id, tab: 'structure' }} data-testid="site-edit-structure">
          {site.permissions.create ? 'Edit structure' : 'Structure'}
        </Link>
      </div>
      <AsyncSection state={state} what="the site's spaces" retry={retry}>
        {(structure) => <PublishedSpaces structure={structure} />}
      </AsyncSection>
    </section>
  );
}

/** The spaces, by section when the site has sections. */
function PublishedSpaces({ structure }: { structure: SiteStructure }) {
  if (structure.siteSpaces.length === 0)
    return <p class="muted">This site publishes no space yet. Add spaces to it on its Structure screen.</p>;
  const sections = structure.sections;
  if (sections.length === 0)
    return (
      <ul class="org-list" data-testid="site-published-spaces">
        {rootSiteSpaces(structure).map((ss) => (
          <SpaceLine key={ss.id} title={ss.title} spaceId={ss.space.id} path={ss.path} isDefault={ss.default} />
        ))}
      </ul>
    );
  return (
    <ul class="org-list" data-testid="site-published-spaces">
      {topLevelOf(structure).flatMap((item) =>
        (item.type === 'section' ? [item.section] : item.sections).map((section) => (
          <li key={section.id} class="site-overview-section">
            <span class="site-overview-section-title">
              {item.type === 'group' && <span class="muted">{item.group.title} › </span>}
              {section.title}
              {section.default && <span class="badge">Default</span>}
            </span>
            <span class="muted">{section.siteSpaces.map((ss) => ss.title).join(', ') || 'No space'}</span>
          </li>
        )),
      )}
    </ul>
  );
}

function SpaceLine(props: { title: string; spaceId: string; path: string; isDefault: boolean }) {
  return (
    <li>
      <Link to={{ view: 'space', spaceId: props.spaceId }} class="org-item-link">
        <Icon name="book-open" />
        {props.title}
      </Link>
      <span class="muted site-path">/{props.path}</span>
      {props.isDefault && <span class="badge">Default</span>}
    </li>
  );
}

const QUICK_LINK_TEXT: Record<string, string> = {
  'site-structure': 'Sections, variants and the spaces the site publishes.',
  'site-customize': 'Colours, logo, fonts and header links.',
  'site-audience': 'Who can read the site: public, share link or visitor authentication.',
  'site-settings': 'Title, address, custom domain, and deleting the site.',
};

/** The site's other screens (the registry's rows of the site's navigation). */
function QuickLinks({ orgId, siteId }: { orgId: string; siteId: string }) {
  const { stores } = useApp();
  const rows = navigationOf('site', stores.org.peek(orgId)).filter((row) => row.fixed.tab !== undefined);
  return (
    <nav class="site-quick-links" aria-label="Site settings">
      {rows.map((row) => (
        <Link
          key={row.id}
          class="site-quick-link"
          data-testid={`quick-${row.id}`}
          to={{ view: 'site', orgId, siteId, tab: row.fixed.tab as never }}
        >
          <strong>{row.label}</strong>
          <span class="muted">{QUICK_LINK_TEXT[row.id] ?? ''}</span>
        </Link>
      ))}
    </nav>
  );
}
