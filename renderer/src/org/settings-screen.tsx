import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { LegacyOrgScreen } from '../screens/legacy-bridge';
import { orgSettingsScreen } from './org-settings';

export default function OrgSettingsScreen({ route }: { route: Route }) {
  const { stores } = useApp();
  const { orgId } = route as Route & { view: 'org' };
  return (
    <LegacyOrgScreen
      orgId={orgId}
      build={(api, org) => orgSettingsScreen(api, org, () => stores.org.invalidate(orgId))}
    />
  );
}
