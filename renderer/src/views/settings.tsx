import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { platform, type Account } from '../platform';
import type { Session } from '../session';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { confirmDialog } from '../ui/kit/dialog';
import { useAsync } from '../ui/kit/hooks';
import { chooseTheme, documentTheme, THEME_CHOICES, type Theme } from '../ui/theme';
import { toast } from '../ui/toast';

/** The parts of the settings screen: the theme, and the accounts saved on this computer. */

/** The colour theme: applied at once, saved through the platform store; a failed save puts the old one back. */
export function ThemeSelect() {
  return (
    <label>
      Theme
      <select
        data-testid="theme-select"
        value={documentTheme.value}
        onChange={(event) => {
          chooseTheme(event.currentTarget.value as Theme).catch((err: unknown) =>
            toast(`Could not save the theme: ${describeError(err)}`, 'error'),
          );
        }}
      >
        {THEME_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What the accounts list asks the app to do (the app owns the session). */
export interface AccountActions {
  /** Makes a saved account the one in use and opens its spaces. */
  switchTo(serverUrl: string): Promise<void>;
  /** Forgets an account; the one in use signs out (back to sign-in). */
  remove(serverUrl: string): Promise<void>;
  /** Signs the account in use out. */
  signOut(): Promise<void>;
  /** Shows the sign-in form to add an account on another server. */
  addAccount(): void;
}

/** A row of the list: a saved account, or the web app's browser session. */
interface AccountEntry {
  account: Omit<Account, 'token'>;
  active: boolean;
  /** The web app's cookie session on its own server: not saved, so it cannot be removed. */
  inBrowser: boolean;
}

/**
 * The accounts saved on this computer (and the browser's own session in the web app): which one
 * is in use, switching to another, removing one, signing out.
 */
export function SavedAccounts({ session, actions }: { session: Session | undefined; actions: AccountActions }) {
  const { state, retry } = useAsync(async (): Promise<AccountEntry[]> => {
    const [list, settings] = await Promise.all([platform().accounts.list(), platform().settings.get()]);
    // The web app's session on its own server: not a saved account (the browser holds its cookie).
    const browser = session && session.account.token === undefined ? session.account : undefined;
    const browserRow = browser && !list.some((a) => a.serverUrl === browser.serverUrl);
    const activeUrl = session?.account.serverUrl ?? settings.activeServerUrl;
    return [
      ...(browserRow ? [{ account: browser, active: true, inBrowser: true }] : []),
      ...list.map((account) => ({
        account,
        active: !browserRow && account.serverUrl === activeUrl,
        inBrowser: false,
      })),
    ];
  }, [session]);
  return (
    <div data-testid="account-list">
      <AsyncSection state={state} what="the saved accounts" retry={retry}>
        {(entries) =>
          entries.length === 0 ? (
            <EmptyState
              message="No account is saved on this computer."
              action={{ label: 'Sign in', run: () => actions.addAccount(), testid: 'settings-sign-in' }}
            />
          ) : (
            <ul class="account-list">
              {entries.map((entry) => (
                <AccountRow key={entry.account.serverUrl} entry={entry} actions={actions} changed={retry} />
              ))}
            </ul>
          )
        }
      </AsyncSection>
    </div>
  );
}

function AccountRow({
  entry: { account, active, inBrowser },
  actions,
  changed,
}: {
  entry: AccountEntry;
  actions: AccountActions;
  /** Reloads the list after a change. */
  changed: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const name = account.displayName ?? 'Unnamed account';
  const act = (run: () => Promise<void>, failure: string) => () => {
    setBusy(true);
    run().then(
      () => {
        setBusy(false);
        changed();
      },
      (err: unknown) => {
        setBusy(false);
        toast(`${failure}: ${describeError(err)}`, 'error');
      },
    );
  };
  const remove = async () => {
    const message = active
      ? `Remove “${name}” (${account.serverUrl})? You will be signed out; documents stay cached on this computer.`
      : `Remove “${name}” (${account.serverUrl}) from this computer?`;
    if (await confirmDialog(message, 'Remove')) await actions.remove(account.serverUrl);
  };
  return (
    <li class="account" data-testid="account" data-server-url={account.serverUrl} data-active={String(active)}>
      <span class="account-who">
        <strong>{name}</strong>
        <span class="account-url">
          {inBrowser ? `${account.serverUrl} · signed in with this browser` : account.serverUrl}
        </span>
      </span>
      {active ? (
        <>
          <span class="badge badge-active">in use</span>
          <button
            type="button"
            data-testid="account-sign-out"
            disabled={busy}
            onClick={act(() => actions.signOut(), 'Could not sign out')}
          >
            Sign out
          </button>
        </>
      ) : (
        <button
          type="button"
          data-testid="account-use"
          disabled={busy}
          onClick={act(() => actions.switchTo(account.serverUrl), 'Could not switch accounts')}
        >
          Use
        </button>
      )}
      {!inBrowser && (
        <button
          type="button"
          class="danger"
          data-testid="account-remove"
          disabled={busy}
          onClick={act(remove, 'Could not remove the account')}
        >
          Remove
        </button>
      )}
    </li>
  );
}
