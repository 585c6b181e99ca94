import { useApp } from '../screens/context';
import { LegacyScreen } from '../screens/legacy-bridge';
import { newOrgScreen } from './new-org';

export default function NewOrgScreen() {
  const { session } = useApp();
  return <LegacyScreen deps={[session]} build={(nav) => newOrgScreen(session, nav)} />;
}
