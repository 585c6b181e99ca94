import { describeError } from '../api/client';
import type { Session } from '../session';
import { confirmDialog } from '../ui/dialog';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import { linkRow } from './access';
import type { OrgNavigation } from './navigation';
import { roleLabel, type Member, type OrgApi, type OrgDetails } from './org-api';
import { act, avatar, panel, roleSelect, selectedRole } from './widgets';

/**
 * Members of an organization: invite by email and by link (admins), the list with roles,
 * changing a role and removing a member (admins), leaving (oneself).
 */
export function membersScreen(session: Session, api: OrgApi, org: OrgDetails, nav: OrgNavigation): HTMLElement {
  const admin = org.permissions.admin;
  const list = h('div', { 'data-testid': 'member-list' }, loading('members'));
  const load = async () => {
    try {
      const members = await api.members();
      replace(
        list,
        h('p', { class: 'muted' }, `${members.items.length} member${members.items.length === 1 ? '' : 's'}`),
        h(
          'ul',
          { class: 'org-list org-members' },
          ...members.items.map((m) => memberRow(session, api, org, m, nav, load)),
        ),
      );
    } catch (err) {
      replace(
        list,
        errorState(`Could not list the members: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return h(
    'div',
    {},
    h('h1', { class: 'org-heading', 'data-testid': 'members-title' }, 'Members'),
    admin && inviteByEmail(api, () => void load()),
    admin && inviteLinks(api, org),
    panel('People', 'org-people', null, list),
  );
}

function memberRow(
  session: Session,
  api: OrgApi,
  org: OrgDetails,
  member: Member,
  nav: OrgNavigation,
  reload: () => Promise<void>,
): HTMLElement {
  const name = member.user.displayName || member.user.email || member.id;
  const self = member.id === session.userId;
  const admin = org.permissions.admin;
  const role = admin
    ? roleSelect(member.role, { label: `Role of ${name}`, testid: 'member-role', guest: true })
    : h('span', { class: 'badge', 'data-testid': 'member-role-label' }, roleLabel(member.role));
  if (role instanceof HTMLSelectElement) {
    let current = member.role;
    role.addEventListener('change', () => {
      const next = selectedRole(role);
      void act(role, `Could not change the role of ${name}`, () => api.setRole(member.id, next)).then((done) => {
        if (done === undefined) role.value = current ?? 'guest';
        else {
          current = next;
          toast(`${name} is now ${roleLabel(next)}`);
        }
      });
    });
  }
  const remove = async (button: HTMLElement) => {
    const question = self
      ? `Leave ${org.title}? You will lose access to its spaces.`
      : `Remove ${name} from ${org.title}?`;
    if (!(await confirmDialog(question, self ? 'Leave' : 'Remove'))) return;
    const done = await act(button, self ? 'Could not leave' : `Could not remove ${name}`, () =>
      api.removeMember(member.id).then(() => true),
    );
    if (!done) return;
    if (self) nav.go({ view: 'picker' });
    else await reload();
  };
  return h(
    'li',
    { class: 'org-member', 'data-testid': 'member', 'data-user-id': member.id },
    avatar(name),
    h(
      'span',
      { class: 'org-row-main org-member-who' },
      h('strong', {}, name, self ? ' (you)' : ''),
      member.user.email && h('span', { class: 'muted' }, member.user.email),
    ),
    role,
    (admin || self) &&
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: self ? 'Leave the organization' : `Remove ${name}`,
          'aria-label': self ? 'Leave the organization' : `Remove ${name}`,
          'data-testid': 'member-remove',
          onclick: (e: Event) => void remove(e.currentTarget as HTMLElement),
        },
        icon(self ? 'log-out' : 'trash'),
      ),
  );
}

function inviteByEmail(api: OrgApi, changed: () => void): HTMLElement {
  const emails = h('input', {
    type: 'text',
    placeholder: 'jane@example.com, joe@example.com',
    'aria-label': 'Email addresses to invite',
    'data-testid': 'invite-emails',
    autocomplete: 'off',
  });
  const role = roleSelect('read', { label: 'Role of the people invited', testid: 'invite-role', guest: true });
  const submit = h(
    'button',
    { type: 'submit', class: 'primary', 'data-testid': 'invite-send' },
    icon('mail'),
    'Invite',
  );
  const form = h('form', { class: 'org-row org-invite-form' }, emails, role, submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const list = emails.value.split(/[\s,;]+/).filter(Boolean);
    if (list.length === 0) return emails.focus();
    void act(submit, 'Could not send the invites', () => api.inviteByEmail(list, selectedRole(role))).then((result) => {
      if (!result) return;
      emails.value = '';
      const parts = [
        result.users.length > 0 && `${result.users.length} added right away`,
        result.invited > 0 && `${result.invited} invited by email`,
      ].filter(Boolean);
      toast(parts.length ? parts.join(', ') : 'Everyone was already a member');
      changed();
    });
  });
  return panel(
    'Invite by email',
    'org-invite-email',
    null,
    h('p', { class: 'muted' }, 'People with an account join at once; others get an email with a link to join.'),
    form,
  );
}

function inviteLinks(api: OrgApi, org: OrgDetails): HTMLElement {
  const list = h('ul', { class: 'org-list org-links', 'data-testid': 'org-invite-links' }, loading('invite links'));
  const role = roleSelect(org.defaultRole ?? 'read', {
    label: 'Role of people joining with the link',
    testid: 'invite-link-role',
    guest: true,
  });
  const load = async () => {
    try {
      const links = (await api.inviteLinks()).items.filter((l) => !l.space && !l.collection);
      replace(
        list,
        ...links.map((l) => linkRow(api, l, () => void load())),
        links.length === 0 && h('li', { class: 'muted' }, 'No invite links yet.'),
      );
    } catch (err) {
      replace(
        list,
        errorState(`Could not list the invite links: ${describeError(err)}`, () => void load()),
      );
    }
  };
  const create = h(
    'button',
    {
      type: 'button',
      'data-testid': 'invite-link-create',
      onclick: () =>
        void act(create, 'Could not create the link', () => api.createInviteLink({ role: selectedRole(role) })).then(
          (l) => l && load(),
        ),
    },
    icon('link'),
    'Create link',
  );
  void load();
  return panel(
    'Invite links',
    'org-invite-links-panel',
    null,
    h(
      'p',
      { class: 'muted' },
      'Anyone signed in who opens a link joins with its role. Delete a link to stop it working.',
    ),
    h('div', { class: 'org-row' }, role, create),
    list,
  );
}
