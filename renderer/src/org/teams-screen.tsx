import type { Route } from '../routes';
import { LegacyOrgScreen } from '../screens/legacy-bridge';
import { teamsScreen } from './teams';

export default function TeamsScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  return <LegacyOrgScreen orgId={orgId} build={(api, org) => teamsScreen(api, org)} />;
}
