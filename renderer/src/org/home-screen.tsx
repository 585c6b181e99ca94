import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { createCollection } from '../stores/org-writes';
import { AsyncSection } from '../ui/kit/async-section';
import { promptDialog } from '../ui/kit/dialog';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { combineStates } from './components/combine-states';
import { Panel } from './components/panel';
import { SpacesPanel } from './components/spaces-panel';
import { useAction } from './components/use-action';
import type { Collection, OrgDetails, SpaceSummary } from './org-api';

/**
 * The organization's home: its collections, its spaces (with "who has access" for those the
 * caller administers) and its docs sites, with create buttons for callers who may create content.
 */
export default function HomeScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { stores } = useApp();
  // The frame shows this screen once the organization is loaded.
  const org = useResource(stores.org, orgId).state;
  const collections = useResource(stores.orgCollections, orgId);
  const spaces = useResource(stores.orgSpaces, orgId);
  const sites = useResource(stores.orgSites, orgId).state;
  if (!('data' in org) || !org.data) return null;
  const details = org.data;
  return (
    <div>
      <h1 class="org-heading" data-testid="org-title">
        {details.title}
      </h1>
      <p class="muted">
        {details.permissions.admin ? 'You administer this organization.' : 'Spaces you can open in this organization.'}
      </p>
      <AsyncSection
        state={combineStates(collections.state, spaces.state)}
        what="the organization's content"
        retry={() => {
          collections.retry();
          spaces.retry();
        }}
      >
        {([collectionList, spaceList]) => (
          <div class="org-sections">
            <CollectionsPanel org={details} collections={collectionList} spaces={spaceList} />
            <SpacesPanel orgId={orgId} spaces={spaceList} canCreate={details.permissions.createContent} />
            {/* Sites are optional here: a failure to list them hides the panel (the Docs sites screen says why). */}
            {sites.status === 'ready' && sites.data.length > 0 && (
              <Panel title="Docs sites" testid="org-sites">
                <ul class="org-list">
                  {sites.data.map((site) => (
                    <li key={site.id}>
                      <Link to={{ view: 'site', orgId, siteId: site.id }} class="org-item-link" data-testid="org-site">
                        <Icon name="globe" />
                        {site.title || 'Untitled site'}
                      </Link>
                      <span class="badge">{site.published ? 'Published' : 'Not published'}</span>
                    </li>
                  ))}
                </ul>
              </Panel>
            )}
          </div>
        )}
      </AsyncSection>
    </div>
  );
}

function CollectionsPanel(props: { org: OrgDetails; collections: Collection[]; spaces: SpaceSummary[] }) {
  const { org, collections, spaces } = props;
  const { stores, nav } = useApp();
  const create = useAction();
  const count = (id: string) => spaces.filter((s) => s.parent === id).length;
  const newCollection = async () => {
    const title = await promptDialog(`New collection in ${org.title}`, '', 'Create');
    if (!title) return;
    const collection = await create.run('Could not create the collection', () =>
      createCollection(stores, org.id, title),
    );
    if (collection) nav.go({ view: 'collection', orgId: org.id, collectionId: collection.id });
  };
  return (
    <Panel
      title="Collections"
      testid="org-collections"
      action={
        org.permissions.createContent && (
          <button
            type="button"
            data-testid="new-collection"
            disabled={create.busy}
            onClick={() => void newCollection()}
          >
            <Icon name="plus" />
            New collection
          </button>
        )
      }
    >
      {collections.length === 0 ? (
        <p class="muted">No collections yet. Collections group spaces and share access to all of them at once.</p>
      ) : (
        <ul class="org-list">
          {collections.map((c) => (
            <li key={c.id}>
              <Link
                to={{ view: 'collection', orgId: org.id, collectionId: c.id }}
                class="org-item-link"
                data-testid="org-collection"
                data-collection-id={c.id}
              >
                <Icon name="layers" />
                {c.title || 'Untitled collection'}
              </Link>
              <span class="org-count">{`${count(c.id)} space${count(c.id) === 1 ? '' : 's'}`}</span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
