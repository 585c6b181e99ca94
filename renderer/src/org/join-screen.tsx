import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { LegacyScreen } from '../screens/legacy-bridge';
import { joinScreen } from './join';

export default function JoinScreen({ route }: { route: Route }) {
  const { session } = useApp();
  const { orgId, inviteId } = route as Route & { view: 'join' };
  return <LegacyScreen deps={[orgId, inviteId]} build={(nav) => joinScreen(session, orgId, inviteId, nav)} />;
}
