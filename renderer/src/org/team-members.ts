import { describeError } from '../api/client';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import type { OrgApi, Team, TeamMember } from './org-api';
import { act, avatar } from './widgets';

/**
 * A team's members, opened from its row: the list (with owners marked), and for those who
 * administer the team (organization admins, the team's owners) a remove button per member and a
 * select to add one of the organization's members. Built on first open, like the access panels.
 */
export function teamMembersDetails(api: OrgApi, team: Team, counted: (members: number) => void): HTMLElement {
  const details = h(
    'details',
    { class: 'org-access-details org-team-members' },
    h(
      'summary',
      { 'data-testid': 'team-members-toggle', 'aria-label': `Members of ${team.title}` },
      icon('users'),
      'Members',
    ),
  );
  let built = false;
  details.addEventListener('toggle', () => {
    if (!details.open || built) return;
    built = true;
    details.append(membersPanel(api, team, counted));
  });
  return details;
}

function membersPanel(api: OrgApi, team: Team, counted: (members: number) => void): HTMLElement {
  const list = h('ul', { class: 'org-list', 'data-testid': 'team-member-list' }, h('li', {}, loading('members')));
  let inTeam = new Set<string>();
  const load = async () => {
    try {
      const members = await api.teamMembers(team.id);
      inTeam = new Set(members.items.map((m) => m.organization.id));
      counted(members.items.length);
      replace(
        list,
        ...members.items.map((m) => memberRow(m)),
        members.items.length === 0 && h('li', { class: 'muted' }, 'Nobody is in this team yet.'),
      );
      refreshChoices();
    } catch (err) {
      replace(
        list,
        h(
          'li',
          {},
          errorState(`Could not list the members: ${describeError(err)}`, () => void load()),
        ),
      );
    }
  };
  const memberRow = (m: TeamMember) => {
    const name = m.organization.user.displayName || m.organization.user.email || m.organization.id;
    return h(
      'li',
      { class: 'org-row', 'data-testid': 'team-member', 'data-user-id': m.organization.id },
      avatar(name),
      h('span', { class: 'org-row-main' }, h('strong', {}, name)),
      m.team.role === 'owner' && h('span', { class: 'badge' }, 'Owner'),
      team.permissions.admin &&
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button',
            title: `Remove ${name} from ${team.title}`,
            'aria-label': `Remove ${name} from ${team.title}`,
            'data-testid': 'team-member-remove',
            onclick: (e: Event) =>
              void act(e.currentTarget as HTMLElement, 'Could not remove the member', () =>
                api.removeTeamMember(team.id, m.organization.id).then(() => true),
              ).then((done) => {
                if (!done) return;
                toast(`${name} left ${team.title}`);
                void load();
              }),
          },
          icon('x'),
        ),
    );
  };

  // The organization's members not yet in the team, to add.
  const choice = h('select', { 'aria-label': `Member to add to ${team.title}`, 'data-testid': 'team-member-add-who' });
  let everyone: { id: string; name: string }[] = [];
  const refreshChoices = () =>
    replace(
      choice,
      h('option', { value: '' }, 'Add a member…'),
      ...everyone.filter((m) => !inTeam.has(m.id)).map((m) => h('option', { value: m.id }, m.name)),
    );
  const add = h(
    'button',
    {
      type: 'button',
      'data-testid': 'team-member-add',
      onclick: () => {
        const userId = choice.value;
        if (!userId) {
          toast('Choose a member first', 'error');
          choice.focus();
          return;
        }
        void act(add, 'Could not add the member', () => api.addTeamMember(team.id, userId).then(() => true)).then(
          (done) => {
            if (!done) return;
            toast(`${choice.selectedOptions[0]?.textContent ?? 'The member'} joined ${team.title}`);
            void load();
          },
        );
      },
    },
    icon('plus'),
    'Add',
  );
  if (team.permissions.admin)
    void api.members().then(
      (members) => {
        everyone = members.items.map((m) => ({ id: m.id, name: m.user.displayName || m.user.email || m.id }));
        refreshChoices();
      },
      () => (choice.disabled = true),
    );
  void load();
  return h(
    'div',
    { class: 'org-access', 'data-testid': 'team-members-panel' },
    list,
    team.permissions.admin && h('div', { class: 'org-row org-access-add' }, choice, add),
  );
}
