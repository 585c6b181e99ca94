import { ApiError, describeError } from '../api/client';
import type { Session } from '../session';
import { h } from '../ui/dom';
import { icon } from '../ui/icons';
import type { OrgNavigation } from './navigation';
import { OrgApi } from './org-api';

/**
 * Accepting an invite (`urls.app` of an invite: `/join/<org>/<invite>`): the signed-in person
 * confirms, joins (joinOrganizationWithInvite), and lands on the organization's home. Someone
 * already in the organization goes straight there.
 */
export function joinScreen(session: Session, orgId: string, inviteId: string, nav: OrgNavigation): HTMLElement {
  const api = new OrgApi(session.api, orgId);
  const message = h('p', { class: 'form-message', role: 'alert', 'data-testid': 'join-message' });
  const accept = h(
    'button',
    { type: 'button', class: 'primary', 'data-testid': 'join-accept' },
    icon('user-plus'),
    'Accept the invite',
  );
  const card = h(
    'div',
    { class: 'org-form card', 'data-testid': 'join' },
    h('h1', { class: 'org-heading', 'data-testid': 'join-title' }, 'Join an organization'),
    h(
      'p',
      {},
      `You were invited to an organization on ${session.account.serverUrl}. Accept to join it as ${session.displayName}.`,
    ),
    h(
      'div',
      { class: 'org-row' },
      accept,
      nav.link({ view: 'picker' }, { class: 'org-top-link', 'data-testid': 'join-decline' }, 'Not now'),
    ),
    message,
  );
  accept.addEventListener('click', () => {
    accept.disabled = true;
    message.textContent = 'Joining…';
    api.join(inviteId).then(
      () => nav.go({ view: 'org', orgId, tab: 'home' }),
      async (err: unknown) => {
        // Already a member (or the link was for a space one can already open): the org is still the place to go.
        const member = await api.org().then(
          (o) => o.permissions.view,
          () => false,
        );
        if (member) return nav.go({ view: 'org', orgId, tab: 'home' });
        accept.disabled = false;
        message.textContent =
          err instanceof ApiError && err.status === 404
            ? 'This invite does not exist any more. Ask for a new link.'
            : `Could not join: ${describeError(err)}`;
      },
    );
  });
  return h('div', { class: 'org-centered' }, card);
}
