import { useApp } from '../screens/context';
import { LegacyScreen } from '../screens/legacy-bridge';
import { accountScreen } from './account';

export default function AccountScreen() {
  const { session, nav } = useApp();
  return <LegacyScreen deps={[session]} build={() => accountScreen(session, () => nav.openSettings())} />;
}
