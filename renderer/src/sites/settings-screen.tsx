import type { Route } from '../routes';
import { LegacyOrgScreen } from '../screens/legacy-bridge';
import { siteScreen } from '../org/places';

export default function SiteSettingsScreen({ route }: { route: Route }) {
  const { orgId, siteId } = route as Route & { view: 'site' };
  return <LegacyOrgScreen orgId={orgId} deps={[siteId]} build={(api, org, nav) => siteScreen(api, org, siteId, nav)} />;
}
