import { describeError } from '../api/client';
import { platform } from '../platform';
import type { Session } from '../session';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { tokenList } from './account-tokens';
import { avatar, panel } from './widgets';

/**
 * The caller's account: who the token belongs to, the sessions saved on this device (one token
 * per server), and the caller's API tokens with Revoke (account-tokens.ts).
 */
export function accountScreen(session: Session, openSettings: () => void): HTMLElement {
  const who = h('div', { 'data-testid': 'account-user' }, loading('account'));
  const sessions = h('ul', { class: 'org-list', 'data-testid': 'account-sessions' });
  void session.api.request<{ id: string; displayName: string; email?: string }>('/user').then(
    (user) =>
      replace(
        who,
        h(
          'div',
          { class: 'org-row' },
          avatar(user.displayName),
          h(
            'span',
            { class: 'org-row-main org-member-who' },
            h('strong', {}, user.displayName),
            user.email && h('span', { class: 'muted' }, user.email),
          ),
          h('code', { class: 'muted', title: 'Your user id' }, user.id),
        ),
      ),
    (err: unknown) => replace(who, errorState(`Could not read your account: ${describeError(err)}`)),
  );
  void Promise.all([platform().accounts.list(), platform().settings.get()]).then(([accounts, settings]) =>
    replace(
      sessions,
      ...accounts.map((a) =>
        h(
          'li',
          { 'data-testid': 'account-session' },
          icon('key'),
          h(
            'span',
            { class: 'org-row-main' },
            h('strong', {}, a.displayName ?? 'Unnamed account'),
            ' ',
            h('span', { class: 'muted' }, a.serverUrl),
          ),
          a.serverUrl === settings.activeServerUrl && h('span', { class: 'badge badge-active' }, 'in use'),
        ),
      ),
    ),
  );
  return h(
    'div',
    {},
    h('h1', { class: 'org-heading', 'data-testid': 'account-title' }, 'Your account'),
    panel('Signed in as', 'account-who', null, who),
    panel(
      'Sessions on this device',
      'account-sessions-panel',
      h('button', { type: 'button', 'data-testid': 'account-manage', onclick: openSettings }, 'Manage'),
      h(
        'p',
        { class: 'muted' },
        `Each saved account keeps one API token for its server (${platform().platform === 'desktop' ? 'encrypted in the settings file' : 'in this browser'}). Sign out or remove an account in Settings.`,
      ),
      sessions,
    ),
    panel(
      'API tokens',
      'account-tokens',
      null,
      h(
        'p',
        { class: 'muted' },
        'Tokens let apps and scripts act as you. Revoke one you no longer use: it stops working at once. New tokens come from signing in, or from an instance administrator’s command line.',
      ),
      tokenList(session.api),
    ),
  );
}
