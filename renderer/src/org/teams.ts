import { describeError } from '../api/client';
import { confirmDialog, promptDialog } from '../ui/dialog';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import type { OrgApi, OrgDetails, Team } from './org-api';
import { teamMembersDetails } from './team-members';
import { act, panel } from './widgets';

/**
 * Teams of an organization: create one with its first members (admins), rename and delete, and
 * see or change who is in each (team-members.ts: organization admins and the team's owners).
 */
export function teamsScreen(api: OrgApi, org: OrgDetails): HTMLElement {
  const list = h('div', { 'data-testid': 'team-list' }, loading('teams'));
  const load = async () => {
    try {
      const teams = await api.teams();
      replace(
        list,
        teams.items.length === 0
          ? h('p', { class: 'muted' }, 'No teams yet. Teams let you share spaces with a group of people at once.')
          : h('ul', { class: 'org-list' }, ...teams.items.map((t) => teamRow(api, t, () => void load()))),
      );
    } catch (err) {
      replace(
        list,
        errorState(`Could not list the teams: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return h(
    'div',
    {},
    h('h1', { class: 'org-heading', 'data-testid': 'teams-title' }, 'Teams'),
    org.permissions.admin && createTeamForm(api, () => void load()),
    panel('All teams', 'org-teams', null, list),
  );
}

function createTeamForm(api: OrgApi, created: () => void): HTMLElement {
  const title = h('input', {
    type: 'text',
    required: true,
    maxlength: 64,
    placeholder: 'Team name',
    'aria-label': 'Team name',
    'data-testid': 'team-title',
  });
  const people = h(
    'fieldset',
    { class: 'org-team-people', 'data-testid': 'team-members-choice' },
    h('legend', {}, 'Members'),
    loading('members'),
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'primary', 'data-testid': 'team-create' },
    icon('plus'),
    'Create team',
  );
  void api.members().then(
    (members) =>
      replace(
        people,
        h('legend', {}, 'Members'),
        ...members.items.map((m) =>
          h(
            'label',
            { class: 'toggle' },
            h('input', { type: 'checkbox', value: m.id, 'data-testid': 'team-member-option' }),
            m.user.displayName || m.user.email || m.id,
          ),
        ),
      ),
    (err: unknown) =>
      replace(people, h('legend', {}, 'Members'), errorState(`Could not list the members: ${describeError(err)}`)),
  );
  const form = h('form', { class: 'org-team-form' }, h('div', { class: 'org-row' }, title, submit), people);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const members = Array.from(people.querySelectorAll<HTMLInputElement>('input:checked')).map((i) => i.value);
    void act(submit, 'Could not create the team', () => api.createTeam(title.value.trim(), members)).then((team) => {
      if (!team) return;
      toast(`Team ${team.title} created`);
      title.value = '';
      for (const box of Array.from(people.querySelectorAll<HTMLInputElement>('input:checked'))) box.checked = false;
      created();
    });
  });
  return panel('New team', 'org-new-team', null, form);
}

function teamRow(api: OrgApi, team: Team, changed: () => void): HTMLElement {
  const rename = async (button: HTMLElement) => {
    const title = await promptDialog('Rename the team', team.title, 'Rename');
    if (
      title &&
      title !== team.title &&
      (await act(button, 'Could not rename the team', () => api.renameTeam(team.id, title)))
    )
      changed();
  };
  const remove = async (button: HTMLElement) => {
    if (!(await confirmDialog(`Delete the team ${team.title}? Its members keep their own access.`))) return;
    if (await act(button, 'Could not delete the team', () => api.deleteTeam(team.id).then(() => true))) changed();
  };
  const countsText = (members: number) =>
    `${members} member${members === 1 ? '' : 's'} · ${team.spaces} space${team.spaces === 1 ? '' : 's'}`;
  const counts = h('span', { class: 'muted', 'data-testid': 'team-counts' }, countsText(team.members));
  return h(
    'li',
    { class: 'org-team', 'data-testid': 'team', 'data-team-id': team.id },
    icon('users'),
    h('span', { class: 'org-row-main' }, h('strong', { 'data-testid': 'team-name' }, team.title)),
    counts,
    team.permissions.admin &&
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: `Rename ${team.title}`,
          'aria-label': `Rename ${team.title}`,
          'data-testid': 'team-rename',
          onclick: (e: Event) => void rename(e.currentTarget as HTMLElement),
        },
        icon('pencil'),
      ),
    team.permissions.admin &&
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: `Delete ${team.title}`,
          'aria-label': `Delete ${team.title}`,
          'data-testid': 'team-delete',
          onclick: (e: Event) => void remove(e.currentTarget as HTMLElement),
        },
        icon('trash'),
      ),
    // Membership changes update the count in place, so the open members panel stays open.
    teamMembersDetails(api, team, (members) => (counts.textContent = countsText(members))),
  );
}
