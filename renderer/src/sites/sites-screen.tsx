import type { Route } from '../routes';
import { LegacyOrgScreen } from '../screens/legacy-bridge';
import { orgHome } from '../org/org-home';

export default function SitesScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  return <LegacyOrgScreen orgId={orgId} build={(api, org, nav) => orgHome(api, org, nav)} />;
}
