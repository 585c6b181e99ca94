import { useApp } from '../screens/context';
import { AsyncSection } from '../ui/kit/async-section';
import { useResource } from '../ui/kit/hooks';
import { Avatar } from './components/avatar';
import { CredentialList } from './components/credential-list';
import { Panel } from './components/panel';

/**
 * The caller's account: who they are on this server, and the one list of everything that acts as
 * them there (browser sessions, desktop apps, API tokens) with Revoke. The accounts saved on this
 * device (switch, add, remove) stay in Settings.
 */
export default function AccountScreen() {
  const { session, stores, nav } = useApp();
  const user = useResource(stores.user, 'me');
  return (
    <div>
      <h1 class="org-heading" data-testid="account-title">
        Your account
      </h1>
      <Panel
        title="Signed in as"
        testid="account-who"
        action={
          <button type="button" data-testid="account-manage" onClick={() => nav.openSettings()}>
            Switch account
          </button>
        }
      >
        <div data-testid="account-user">
          <AsyncSection state={user.state} what="your account" retry={user.retry}>
            {(me) => (
              <div class="org-row">
                <Avatar name={me.displayName} />
                <span class="org-row-main org-member-who">
                  <strong>{me.displayName}</strong>
                  {me.email && <span class="muted">{me.email}</span>}
                  <span class="muted">
                    on {session.account.serverUrl} · user id <code>{me.id}</code>
                  </span>
                </span>
              </div>
            )}
          </AsyncSection>
        </div>
      </Panel>
      <Panel title="Sessions, devices and tokens" testid="account-sessions-panel">
        <p class="muted">
          Everything signed in as you on this server: browsers, desktop apps, and tokens that let apps and scripts act
          as you. Revoke one you do not recognise or no longer use: it stops working at once. New tokens come from
          signing in, or from an instance administrator’s command line.
        </p>
        <CredentialList />
      </Panel>
    </div>
  );
}
