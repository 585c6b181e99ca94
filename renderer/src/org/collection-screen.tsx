import type { Route } from '../routes';
import { LegacyOrgScreen } from '../screens/legacy-bridge';
import { collectionScreen } from './places';

export default function CollectionScreen({ route }: { route: Route }) {
  const { orgId, collectionId } = route as Route & { view: 'collection' };
  return (
    <LegacyOrgScreen
      orgId={orgId}
      deps={[collectionId]}
      build={(api, org, nav) => collectionScreen(api, org, collectionId, nav)}
    />
  );
}
