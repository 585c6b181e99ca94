import { useNavigation } from '../screens/context';
import { useShell } from '../screens/shell-context';
import { Imperative } from '../ui/kit/imperative';
import { settingsView } from './settings';

export default function SettingsScreen() {
  const shell = useShell();
  const nav = useNavigation();
  return (
    <Imperative
      deps={[shell.session]}
      create={(host) =>
        void host.append(
          settingsView(shell.session, {
            switchTo: (serverUrl) => shell.switchAccount(serverUrl),
            remove: (serverUrl) => shell.removeAccount(serverUrl),
            signOut: () => shell.signOut(),
            addAccount: () => nav.go({ view: 'sign-in' }),
            back: () => shell.back(),
          }),
        )
      }
    />
  );
}
