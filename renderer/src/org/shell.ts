import type { OrgTab, Route } from '../routes';
import type { Session } from '../session';
import { h } from '../ui/dom';
import { icon } from '../ui/icons';
import type { OrgNavigation } from './navigation';
import './org.css';

/** The organization screens' frame: a top bar, the organization's navigation, the content. */
export function orgShell(
  session: Session,
  nav: OrgNavigation,
  options: { orgId?: string; orgTitle?: HTMLElement; active?: OrgTab | 'collection' | 'site' | 'account' },
  content: HTMLElement,
): HTMLElement {
  const tabs: { tab: OrgTab; label: string }[] = [
    { tab: 'home', label: 'Spaces & collections' },
    { tab: 'members', label: 'Members' },
    { tab: 'teams', label: 'Teams' },
    { tab: 'settings', label: 'Settings' },
  ];
  const orgId = options.orgId;
  const side =
    orgId &&
    h(
      'nav',
      { class: 'org-nav', 'aria-label': 'Organization' },
      options.orgTitle,
      h(
        'ul',
        {},
        ...tabs.map(({ tab, label }) =>
          h(
            'li',
            {},
            nav.link(
              { view: 'org', orgId, tab },
              {
                class: 'org-nav-link',
                'data-testid': `org-tab-${tab}`,
                'aria-current': options.active === tab ? 'page' : undefined,
              },
              label,
            ),
          ),
        ),
      ),
    );
  const picker: Route = { view: 'picker' };
  return h(
    'div',
    { class: 'org-screen' },
    h(
      'header',
      { class: 'topbar' },
      nav.link(
        picker,
        { class: 'org-back', 'data-testid': 'to-picker', title: 'All spaces' },
        icon('arrow-left'),
        h('span', {}, 'Spaces'),
      ),
      h('span', { class: 'spacer' }),
      nav.link(
        { view: 'account' },
        {
          class: 'org-top-link',
          'data-testid': 'open-account',
          'aria-current': options.active === 'account' ? 'page' : undefined,
        },
        'Account',
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: 'Settings',
          'aria-label': 'Settings',
          'data-testid': 'open-settings',
          onclick: () => nav.openSettings(),
        },
        icon('settings'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'ghost',
          title: `Sign out ${session.displayName}`,
          'data-testid': 'sign-out',
          onclick: () => nav.signOut(),
        },
        icon('log-out'),
        h('span', { class: 'hide-narrow' }, 'Sign out'),
      ),
    ),
    h(
      'div',
      { class: side ? 'org-layout' : 'org-layout org-layout-single' },
      side,
      h('main', { class: 'org-main' }, content),
    ),
  );
}
