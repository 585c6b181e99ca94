import { describeError } from '../api/client';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import { roleLabel, type AccessTarget, type OrgApi, type Role, type TeamGrant, type UserGrant } from './org-api';
import { act, avatar, roleSelect, selectedRole } from './widgets';

/**
 * "People with access" of a space or collection: the members and teams granted a role on it
 * directly (on top of what the organization's default level gives), each with its role to change
 * and a remove button, and a row to add a member or a team with a role. Whoever sees the content
 * sees the list; `canManage` (its admins) shows the controls.
 */
export function peopleWithAccess(api: OrgApi, target: AccessTarget, title: string, canManage: boolean): HTMLElement {
  const list = h('ul', { class: 'org-list', 'data-testid': 'access-people' }, h('li', {}, loading('people')));
  const load = async () => {
    try {
      const [users, teams] = await Promise.all([api.grants(target, 'users'), api.grants(target, 'teams')]);
      replace(
        list,
        ...users.items.map((g) => userRow(g)),
        ...teams.items.map((g) => teamRow(g)),
        users.items.length + teams.items.length === 0 &&
          h(
            'li',
            { class: 'muted', 'data-testid': 'access-people-empty' },
            `Nobody has been given access to ${title} directly.`,
          ),
      );
    } catch (err) {
      replace(
        list,
        h(
          'li',
          {},
          errorState(`Could not list who has access: ${describeError(err)}`, () => void load()),
        ),
      );
    }
  };

  /** The role select and remove button of one grant (or just its role when the caller cannot manage). */
  const controls = (kind: 'users' | 'teams', id: string, name: string, role: Role) => {
    if (!canManage) return [h('span', { class: 'badge' }, roleLabel(role))];
    const select = roleSelect(role, { label: `Role of ${name} on ${title}`, testid: 'access-person-role' });
    select.addEventListener('change', () => {
      const next = selectedRole(select) ?? 'read';
      void act(select, 'Could not change the role', () => api.setGrant(target, kind, id, next)).then(() =>
        toast(`${name} now has ${roleLabel(next)} access`),
      );
    });
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: `Remove ${name}'s access`,
        'aria-label': `Remove ${name}'s access to ${title}`,
        'data-testid': 'access-person-remove',
        onclick: (e: Event) =>
          void act(e.currentTarget as HTMLElement, 'Could not remove the access', () =>
            api.removeGrant(target, kind, id),
          ).then(() => load()),
      },
      icon('trash'),
    );
    return [select, remove];
  };

  const userRow = (g: UserGrant) => {
    const name = g.user.displayName || g.user.email || g.user.id;
    return h(
      'li',
      { class: 'org-row', 'data-testid': 'access-person', 'data-user-id': g.user.id },
      avatar(name),
      h(
        'span',
        { class: 'org-row-main org-member-who' },
        h('strong', {}, name),
        g.user.email && h('span', { class: 'muted' }, g.user.email),
      ),
      ...controls('users', g.user.id, name, g.permission),
    );
  };
  const teamRow = (g: TeamGrant) =>
    h(
      'li',
      { class: 'org-row', 'data-testid': 'access-team', 'data-team-id': g.team.id },
      icon('users'),
      h(
        'span',
        { class: 'org-row-main org-member-who' },
        h('strong', {}, g.team.title),
        h('span', { class: 'muted' }, `Team · ${g.team.members} member${g.team.members === 1 ? '' : 's'}`),
      ),
      ...controls('teams', g.team.id, `the team ${g.team.title}`, g.permission),
    );

  void load();
  return h(
    'div',
    { class: 'org-people-access', 'data-testid': 'access-people-section' },
    h('h3', {}, 'People with access'),
    list,
    canManage && addRow(api, target, title, () => void load()),
  );
}

/** Pick a member or a team, a role, and add them. */
function addRow(api: OrgApi, target: AccessTarget, title: string, added: () => void): HTMLElement {
  const who = h(
    'select',
    { 'aria-label': `Member or team to give access to ${title}`, 'data-testid': 'access-add-who' },
    h('option', { value: '' }, 'Add a member or team…'),
  );
  const role = roleSelect('read', { label: 'Role to give', testid: 'access-add-role' });
  const add = h(
    'button',
    { type: 'button', 'data-testid': 'access-add', onclick: () => void submit() },
    icon('plus'),
    'Add',
  );
  void Promise.all([api.members(), api.teams().catch(() => ({ items: [] }))]).then(
    ([members, teams]) =>
      who.append(
        h(
          'optgroup',
          { label: 'Members' },
          ...members.items.map((m) =>
            h('option', { value: `users:${m.id}` }, m.user.displayName || m.user.email || m.id),
          ),
        ),
        ...(teams.items.length > 0
          ? [
              h(
                'optgroup',
                { label: 'Teams' },
                ...teams.items.map((t) => h('option', { value: `teams:${t.id}` }, t.title)),
              ),
            ]
          : []),
      ),
    // Guests and members who may not list the organization's members cannot pick anyone.
    () => (who.disabled = true),
  );
  const submit = async () => {
    const [kind, id] = who.value.split(':') as ['users' | 'teams', string];
    if (!id) {
      toast('Choose a member or a team first', 'error');
      who.focus();
      return;
    }
    const granted = selectedRole(role) ?? 'read';
    const body = kind === 'users' ? { role: granted, users: [id] } : { role: granted, teams: [id] };
    if ((await act(add, 'Could not give access', () => api.grant(target, body).then(() => true))) !== undefined) {
      toast(`${who.selectedOptions[0]?.textContent ?? 'They'} now has ${roleLabel(granted)} access`);
      who.value = '';
      added();
    }
  };
  return h('div', { class: 'org-row org-access-add' }, who, role, add);
}
