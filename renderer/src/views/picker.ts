import { describeError } from '../api/client';
import type { List, Organization, Space } from '../api/types';
import { recentSpaces, type Session } from '../session';
import { promptDialog } from '../ui/dialog';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import { toast } from '../ui/toast';

/** What the picker asks the app to do. */
export interface PickerActions {
  open(spaceId: string): void;
  signOut(): void;
  openSettings(): void;
  /** Opens an organization's home (members, teams, access). */
  openOrg(orgId: string): void;
  /** Opens the form that creates an organization. */
  newOrg(): void;
  /** Opens the caller's account (sessions, tokens). */
  account(): void;
}

/**
 * The start screen: recently opened spaces (listed from settings, so they open
 * offline too), then every organization the token can see with its spaces,
 * and a button to create a space.
 */
export function pickerView(session: Session, actions: PickerActions): HTMLElement {
  const { open, signOut, openSettings } = actions;
  const recent = h('section', { class: 'recent' });
  const orgs = h('section', { class: 'orgs', 'data-testid': 'org-list' }, loading('organizations'));
  const root = h(
    'main',
    { class: 'picker' },
    h(
      'header',
      { class: 'topbar' },
      h('h1', {}, 'Folio'),
      h('span', { class: 'spacer' }),
      h(
        'button',
        { type: 'button', class: 'link', 'data-testid': 'new-org', onclick: actions.newOrg },
        '+ New organization',
      ),
      h(
        'button',
        { type: 'button', class: 'link', 'data-testid': 'open-account', onclick: actions.account },
        'Account',
      ),
      h('button', { type: 'button', class: 'link', 'data-testid': 'open-settings', onclick: openSettings }, 'Settings'),
      h(
        'button',
        { type: 'button', class: 'link', 'data-testid': 'sign-out', onclick: signOut },
        `Sign out ${session.displayName}`,
      ),
    ),
    h('div', { class: 'picker-body' }, recent, orgs),
  );
  void recentSpaces(session).then((list) => {
    if (list.length === 0) return;
    replace(
      recent,
      h('h2', {}, 'Recent'),
      h(
        'ul',
        { class: 'space-list' },
        ...list.map((r) =>
          h(
            'li',
            {},
            h(
              'button',
              { type: 'button', class: 'link', 'data-testid': 'recent-space', onclick: () => open(r.spaceId) },
              r.title,
            ),
          ),
        ),
      ),
    );
  });
  const load = async () => {
    replace(orgs, loading('organizations'));
    try {
      const list = await session.api.request<List<Organization>>('/orgs', { query: { limit: 100 } });
      if (list.items.length === 0) {
        replace(
          orgs,
          empty(
            'This account is not a member of any organization yet. Create one, or ask an administrator to invite you.',
            {
              label: 'Create an organization',
              run: actions.newOrg,
              testid: 'empty-new-org',
            },
          ),
        );
        return;
      }
      replace(orgs, ...list.items.map((org) => orgSection(session, org, open, actions.openOrg)));
    } catch (err) {
      replace(
        orgs,
        errorState(`Could not list organizations: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return root;
}

function orgSection(
  session: Session,
  org: Organization,
  open: (spaceId: string) => void,
  openOrg: (orgId: string) => void,
): HTMLElement {
  const spaces = h('div', {}, loading('spaces'));
  const create = async () => {
    const title = await promptDialog(`New space in ${org.title}`, '', 'Create');
    if (!title) return;
    try {
      const space = await session.api.request<Space>(`/orgs/${org.id}/spaces`, { method: 'POST', body: { title } });
      open(space.id);
    } catch (err) {
      toast(`Could not create the space: ${describeError(err)}`, 'error');
    }
  };
  const section = h(
    'section',
    { class: 'org card', 'data-testid': 'org', 'data-org-id': org.id },
    h(
      'header',
      { class: 'panel-header' },
      h('h2', {}, org.title),
      // Kept together at the right of the header (the header spreads its children apart).
      h(
        'span',
        { style: 'display: flex; gap: var(--space-2); align-items: center' },
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            'data-testid': 'open-org',
            title: `Members, teams and access of ${org.title}`,
            onclick: () => openOrg(org.id),
          },
          'Manage',
        ),
        h('button', { type: 'button', 'data-testid': 'new-space', onclick: () => void create() }, '+ New space'),
      ),
    ),
    spaces,
  );
  const load = async () => {
    try {
      const list = await session.api.request<List<Space>>(`/orgs/${org.id}/spaces`, { query: { limit: 1000 } });
      if (list.items.length === 0) {
        replace(spaces, empty('No spaces yet.', { label: 'Create a space', run: () => void create() }));
        return;
      }
      const items = list.items.map((s) =>
        h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'link', 'data-testid': 'space', 'data-space-id': s.id, onclick: () => open(s.id) },
            `${s.emoji ? `${s.emoji} ` : ''}${s.title || 'Untitled space'}`,
          ),
        ),
      );
      replace(spaces, h('ul', { class: 'space-list' }, ...items));
    } catch (err) {
      replace(
        spaces,
        errorState(`Could not list spaces: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return section;
}
