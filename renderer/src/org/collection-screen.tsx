import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { AsyncSection, ErrorState } from '../ui/kit/async-section';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { AccessPanel } from './components/access-panel';
import { combineStates } from './components/combine-states';
import { Panel } from './components/panel';
import { SpacesPanel } from './components/spaces-panel';

/**
 * A collection (`urls.app` of a collection): its spaces and who has access to it. Read from the
 * organization's lists, so a space created here shows on the home too, without a reload.
 */
export default function CollectionScreen({ route }: { route: Route }) {
  const { orgId, collectionId } = route as Route & { view: 'collection' };
  const { stores } = useApp();
  const org = useResource(stores.org, orgId).state;
  const collections = useResource(stores.orgCollections, orgId);
  const spaces = useResource(stores.orgSpaces, orgId);
  const orgTitle = 'data' in org ? org.data?.title : undefined;
  return (
    <AsyncSection
      state={combineStates(collections.state, spaces.state)}
      what="the collection"
      retry={() => {
        collections.retry();
        spaces.retry();
      }}
    >
      {([collectionList, spaceList]) => {
        const found = collectionList.find((c) => c.id === collectionId);
        if (!found) return <ErrorState message="This collection does not exist, or you were not given access to it." />;
        const title = found.title || 'Untitled collection';
        return (
          <div>
            <p class="org-crumbs">
              <Link to={{ view: 'org', orgId, tab: 'home' }} data-testid="crumb-org">
                {orgTitle}
              </Link>
              {' / '}Collection
            </p>
            <h1 class="org-heading" data-testid="collection-title">
              <Icon name="layers" />
              {title}
            </h1>
            {found.description && <p class="muted">{found.description}</p>}
            <SpacesPanel orgId={orgId} spaces={spaceList} parent={found.id} canCreate={found.permissions.create} />
            {found.permissions.admin && (
              <Panel title="Who has access" testid="collection-access-panel">
                <AccessPanel
                  orgId={orgId}
                  target={{ collection: found.id }}
                  defaultLevel={found.defaultLevel}
                  inherit={Boolean(found.parent)}
                  title={title}
                />
              </Panel>
            )}
          </div>
        );
      }}
    </AsyncSection>
  );
}
