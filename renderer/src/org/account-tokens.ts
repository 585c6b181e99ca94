import { describeError, type ApiClient } from '../api/client';
import { confirmDialog } from '../ui/dialog';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import { revokeUserToken, userTokens, type ApiToken } from './org-api';
import { act } from './widgets';

const when = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * The caller's API tokens (Folio's `/user/tokens`): label, when issued, and Revoke. Revoking
 * closes that token's live connections at once. The token this app signed in with is marked
 * and not offered for revocation here: signing out (Settings) is how one drops it.
 */
export function tokenList(api: ApiClient): HTMLElement {
  const list = h('ul', { class: 'org-list', 'data-testid': 'account-token-list' }, h('li', {}, loading('tokens')));
  const load = async () => {
    try {
      const tokens = await userTokens(api);
      replace(
        list,
        ...tokens.items.map((t) => tokenRow(t)),
        tokens.items.length === 0 && h('li', { class: 'muted' }, 'No tokens.'),
      );
    } catch (err) {
      replace(
        list,
        h(
          'li',
          {},
          errorState(`Could not list your tokens: ${describeError(err)}`, () => void load()),
        ),
      );
    }
  };
  const tokenRow = (t: ApiToken) => {
    const name = t.label || 'Unnamed token';
    return h(
      'li',
      { class: 'org-row', 'data-testid': 'account-token', 'data-token-id': t.id },
      icon('key'),
      h(
        'span',
        { class: 'org-row-main org-member-who' },
        h('strong', { 'data-testid': 'account-token-label' }, name),
        h(
          'span',
          { class: 'muted' },
          `Created ${when(t.createdAt)}${t.lastUsedAt ? ` · last used ${when(t.lastUsedAt)}` : ''}`,
        ),
      ),
      t.current
        ? h('span', { class: 'badge badge-active', title: 'The token this app is signed in with' }, 'this session')
        : h(
            'button',
            {
              type: 'button',
              'aria-label': `Revoke the token ${name}`,
              'data-testid': 'account-token-revoke',
              onclick: (e: Event) => void revoke(e.currentTarget as HTMLElement, t, name),
            },
            'Revoke',
          ),
    );
  };
  const revoke = async (button: HTMLElement, t: ApiToken, name: string) => {
    if (!(await confirmDialog(`Revoke the token ${name}? Apps using it are signed out at once.`, 'Revoke'))) return;
    if (await act(button, 'Could not revoke the token', () => revokeUserToken(api, t.id).then(() => true))) {
      toast(`Token ${name} revoked`);
      void load();
    }
  };
  void load();
  return list;
}
