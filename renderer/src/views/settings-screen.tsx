import { useNavigation } from '../screens/context';
import { useShell } from '../screens/shell-context';
import { useWindowTitle } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { TopBar } from '../ui/kit/top-bar';
import { SavedAccounts, ThemeSelect } from './settings';

/**
 * The settings of this app (signed in or not): the colour theme and the accounts saved here. The
 * account's own sessions, devices and tokens are on the Account screen, linked from here.
 */
export default function SettingsScreen() {
  const shell = useShell();
  const nav = useNavigation();
  useWindowTitle('Settings');
  return (
    <div class="settings" data-testid="settings">
      <TopBar
        active="settings"
        title={
          <>
            <button type="button" class="ghost org-back" data-testid="settings-back" onClick={() => shell.back()}>
              <Icon name="arrow-left" />
              <span>Back</span>
            </button>
            <span class="topbar-divider" aria-hidden="true" />
            <h1>Settings</h1>
          </>
        }
      />
      <main class="settings-body">
        <section class="card" aria-labelledby="settings-appearance">
          <h2 id="settings-appearance">Appearance</h2>
          <ThemeSelect />
        </section>
        <section class="card" aria-labelledby="settings-accounts">
          <header class="panel-header">
            <h2 id="settings-accounts">Accounts</h2>
            <button type="button" data-testid="add-account" onClick={() => nav.go({ view: 'sign-in' })}>
              + Add an account
            </button>
          </header>
          <SavedAccounts
            session={shell.session}
            actions={{
              switchTo: (serverUrl) => shell.switchAccount(serverUrl),
              remove: (serverUrl) => shell.removeAccount(serverUrl),
              signOut: () => shell.signOut(),
              addAccount: () => nav.go({ view: 'sign-in' }),
            }}
          />
        </section>
        {shell.session && (
          <section class="card" aria-labelledby="settings-sessions">
            <h2 id="settings-sessions">Sessions and devices</h2>
            <p class="muted settings-hint">
              Where you are signed in to {shell.session.account.serverUrl}, your desktop apps and your API tokens are
              listed on your account, where you can revoke them.
            </p>
            <Link to={{ view: 'account' }} class="settings-account-link" data-testid="settings-open-account">
              Sessions, devices and tokens <Icon name="arrow-right" /> Account
            </Link>
          </section>
        )}
      </main>
    </div>
  );
}
