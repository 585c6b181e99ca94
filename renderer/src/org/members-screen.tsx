import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { LegacyOrgScreen } from '../screens/legacy-bridge';
import { membersScreen } from './members';

export default function MembersScreen({ route }: { route: Route }) {
  const { session } = useApp();
  const { orgId } = route as Route & { view: 'org' };
  return <LegacyOrgScreen orgId={orgId} build={(api, org, nav) => membersScreen(session, api, org, nav)} />;
}
