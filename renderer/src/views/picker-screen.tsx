import { useApp } from '../screens/context';
import { LegacyScreen } from '../screens/legacy-bridge';
import { pickerView } from './picker';

export default function PickerScreen() {
  const { session, nav } = useApp();
  return (
    <LegacyScreen
      deps={[session]}
      build={() =>
        pickerView(session, {
          open: (spaceId) => nav.go({ view: 'space', spaceId }),
          signOut: () => nav.signOut(),
          openSettings: () => nav.openSettings(),
          openOrg: (orgId) => nav.go({ view: 'org', orgId, tab: 'home' }),
          newOrg: () => nav.go({ view: 'new-org' }),
          account: () => nav.go({ view: 'account' }),
        })
      }
    />
  );
}
