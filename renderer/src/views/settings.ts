import { describeError } from '../api/client';
import { platform, type Account } from '../platform';
import type { Session } from '../session';
import { sessionsList } from '../sign-in/sessions-list';
import { confirmDialog } from '../ui/dialog';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import { chooseTheme, currentTheme, THEME_CHOICES, type Theme } from '../ui/theme';
import { toast } from '../ui/toast';

/** What the settings view asks the app to do with accounts (the app owns the session). */
export interface SettingsActions {
  /** Makes a saved account the active one and opens its spaces. */
  switchTo(serverUrl: string): Promise<void>;
  /** Forgets an account; the active one signs out (back to sign-in). */
  remove(serverUrl: string): Promise<void>;
  /** Signs the active account out. */
  signOut(): Promise<void>;
  /** Shows the sign-in form to add an account on another server. */
  addAccount(): void;
  /** Leaves the settings. */
  back(): void;
}

/**
 * The settings screen: the colour theme (applied at once, saved through the
 * platform store), the saved accounts — which one is in use, switching to
 * another, removing one, signing out, adding one — and, when signed in, the
 * account's sessions and devices on its server.
 */
export function settingsView(session: Session | undefined, actions: SettingsActions): HTMLElement {
  // The web app's session on its own server: not a saved account (the browser holds its cookie).
  const browserAccount = session && session.account.token === undefined ? session.account : undefined;
  const accounts = h('div', { 'data-testid': 'account-list' }, loading('accounts'));
  const root = h(
    'main',
    { class: 'settings', 'data-testid': 'settings' },
    h(
      'header',
      { class: 'topbar' },
      h(
        'button',
        { type: 'button', class: 'link', 'data-testid': 'settings-back', onclick: () => actions.back() },
        '← Back',
      ),
      h('h1', {}, 'Settings'),
    ),
    h(
      'div',
      { class: 'settings-body' },
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'settings-appearance' },
        h('h2', { id: 'settings-appearance' }, 'Appearance'),
        themeSelect(),
      ),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'settings-accounts' },
        h(
          'header',
          { class: 'panel-header' },
          h('h2', { id: 'settings-accounts' }, 'Accounts'),
          h(
            'button',
            { type: 'button', 'data-testid': 'add-account', onclick: () => actions.addAccount() },
            '+ Add an account',
          ),
        ),
        accounts,
      ),
      session &&
        h(
          'section',
          { class: 'card', 'aria-labelledby': 'settings-sessions' },
          h('h2', { id: 'settings-sessions' }, 'Sessions and devices'),
          h(
            'p',
            { class: 'muted settings-hint' },
            `Where you are signed in to ${session.account.serverUrl}. Revoke one you do not recognise.`,
          ),
          sessionsList(session.api, () => actions.signOut()),
        ),
    ),
  );
  const load = async () => {
    replace(accounts, loading('accounts'));
    try {
      const [list, settings] = await Promise.all([platform().accounts.list(), platform().settings.get()]);
      const browserRow =
        browserAccount &&
        !list.some((a) => a.serverUrl === browserAccount.serverUrl) &&
        accountRow(browserAccount, true, actions, load, true);
      if (list.length === 0 && !browserRow) {
        replace(
          accounts,
          empty('No account is saved on this computer.', {
            label: 'Sign in',
            run: () => actions.addAccount(),
            testid: 'settings-sign-in',
          }),
        );
        return;
      }
      replace(
        accounts,
        h(
          'ul',
          { class: 'account-list' },
          browserRow,
          ...list.map((account) =>
            accountRow(
              account,
              !browserRow && account.serverUrl === (session?.account.serverUrl ?? settings.activeServerUrl),
              actions,
              load,
            ),
          ),
        ),
      );
    } catch (err) {
      replace(
        accounts,
        errorState(`Could not read the saved accounts: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return root;
}

function themeSelect(): HTMLElement {
  const active = currentTheme();
  const select = h(
    'select',
    { 'data-testid': 'theme-select' },
    ...THEME_CHOICES.map((c) => h('option', { value: c.value, selected: c.value === active }, c.label)),
  );
  select.addEventListener('change', () => {
    chooseTheme(select.value as Theme).catch((err: unknown) => {
      select.value = currentTheme();
      toast(`Could not save the theme: ${describeError(err)}`, 'error');
    });
  });
  return h('label', {}, 'Theme', select);
}

function accountRow(
  account: Omit<Account, 'token'>,
  active: boolean,
  actions: SettingsActions,
  reload: () => Promise<void>,
  inBrowser = false,
): HTMLElement {
  const name = account.displayName ?? 'Unnamed account';
  const act = (run: () => Promise<void>, failure: string) => () =>
    void run().then(
      () => reload(),
      (err: unknown) => toast(`${failure}: ${describeError(err)}`, 'error'),
    );
  const remove = async () => {
    const message = active
      ? `Remove “${name}” (${account.serverUrl})? You will be signed out; documents stay cached on this computer.`
      : `Remove “${name}” (${account.serverUrl}) from this computer?`;
    if (await confirmDialog(message, 'Remove')) await actions.remove(account.serverUrl);
  };
  return h(
    'li',
    { class: 'account', 'data-testid': 'account', 'data-server-url': account.serverUrl, 'data-active': String(active) },
    h(
      'span',
      { class: 'account-who' },
      h('strong', {}, name),
      h(
        'span',
        { class: 'account-url' },
        inBrowser ? `${account.serverUrl} · signed in with this browser` : account.serverUrl,
      ),
    ),
    active
      ? h('span', { class: 'badge badge-active' }, 'in use')
      : h(
          'button',
          {
            type: 'button',
            'data-testid': 'account-use',
            onclick: act(() => actions.switchTo(account.serverUrl), 'Could not switch accounts'),
          },
          'Use',
        ),
    active &&
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'account-sign-out',
          onclick: act(() => actions.signOut(), 'Could not sign out'),
        },
        'Sign out',
      ),
    !inBrowser &&
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          'data-testid': 'account-remove',
          onclick: act(remove, 'Could not remove the account'),
        },
        'Remove',
      ),
  );
}
