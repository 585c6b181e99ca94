import { useState } from 'preact/hooks';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { createTeam, deleteTeam, renameTeam } from '../stores/org-writes';
import { AsyncSection } from '../ui/kit/async-section';
import { confirmDialog, promptDialog } from '../ui/kit/dialog';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { toast } from '../ui/toast';
import { Panel } from './components/panel';
import { TeamMembersDetails } from './components/team-members';
import { useAction } from './components/use-action';
import type { Team } from './org-api';

/**
 * Teams of an organization: create one with its first members (admins), rename and delete, and
 * see or change who is in each (organization admins and the team's owners).
 */
export default function TeamsScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { stores } = useApp();
  const org = useResource(stores.org, orgId).state;
  const teams = useResource(stores.orgTeams, orgId);
  if (!('data' in org) || !org.data) return null;
  return (
    <div>
      <h1 class="org-heading" data-testid="teams-title">
        Teams
      </h1>
      {org.data.permissions.admin && <NewTeam orgId={orgId} />}
      <Panel title="All teams" testid="org-teams">
        <div data-testid="team-list">
          <AsyncSection state={teams.state} what="teams" retry={teams.retry}>
            {(list) =>
              list.length === 0 ? (
                <p class="muted">No teams yet. Teams let you share spaces with a group of people at once.</p>
              ) : (
                <ul class="org-list">
                  {list.map((t) => (
                    <TeamRow key={t.id} orgId={orgId} team={t} />
                  ))}
                </ul>
              )
            }
          </AsyncSection>
        </div>
      </Panel>
    </div>
  );
}

function NewTeam({ orgId }: { orgId: string }) {
  const { stores } = useApp();
  const members = useResource(stores.orgMembers, orgId);
  const [title, setTitle] = useState('');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const create = useAction();
  const toggle = (id: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const submit = async () => {
    const team = await create.run('Could not create the team', () =>
      createTeam(stores, orgId, title.trim(), [...chosen]),
    );
    if (!team) return;
    toast(`Team ${team.title} created`);
    setTitle('');
    setChosen(new Set());
  };
  return (
    <Panel title="New team" testid="org-new-team">
      <form
        class="org-team-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div class="org-row">
          <input
            type="text"
            required
            maxLength={64}
            placeholder="Team name"
            aria-label="Team name"
            data-testid="team-title"
            value={title}
            onInput={(event) => setTitle(event.currentTarget.value)}
          />
          <button type="submit" class="primary" data-testid="team-create" disabled={create.busy}>
            <Icon name="plus" />
            Create team
          </button>
        </div>
        <fieldset class="org-team-people" data-testid="team-members-choice">
          <legend>Members</legend>
          <AsyncSection state={members.state} what="members" retry={members.retry}>
            {(list) =>
              list.map((m) => (
                <label key={m.id} class="toggle">
                  <input
                    type="checkbox"
                    value={m.id}
                    data-testid="team-member-option"
                    checked={chosen.has(m.id)}
                    onChange={(event) => toggle(m.id, event.currentTarget.checked)}
                  />
                  {m.user.displayName || m.user.email || m.id}
                </label>
              ))
            }
          </AsyncSection>
        </fieldset>
      </form>
    </Panel>
  );
}

function TeamRow({ orgId, team }: { orgId: string; team: Team }) {
  const { stores } = useApp();
  const rename = useAction();
  const remove = useAction();
  const onRename = async () => {
    const title = await promptDialog('Rename the team', team.title, 'Rename');
    if (title && title !== team.title)
      await rename.run('Could not rename the team', () => renameTeam(stores, orgId, team.id, title));
  };
  const onDelete = async () => {
    if (!(await confirmDialog(`Delete the team ${team.title}? Its members keep their own access.`))) return;
    await remove.run('Could not delete the team', () => deleteTeam(stores, orgId, team.id));
  };
  return (
    <li class="org-team" data-testid="team" data-team-id={team.id}>
      <Icon name="users" />
      <span class="org-row-main">
        <strong data-testid="team-name">{team.title}</strong>
      </span>
      <span class="muted" data-testid="team-counts">
        {`${team.members} member${team.members === 1 ? '' : 's'} · ${team.spaces} space${team.spaces === 1 ? '' : 's'}`}
      </span>
      {team.permissions.admin && (
        <button
          type="button"
          class="icon-button"
          title={`Rename ${team.title}`}
          aria-label={`Rename ${team.title}`}
          data-testid="team-rename"
          disabled={rename.busy}
          onClick={() => void onRename()}
        >
          <Icon name="pencil" />
        </button>
      )}
      {team.permissions.admin && (
        <button
          type="button"
          class="icon-button"
          title={`Delete ${team.title}`}
          aria-label={`Delete ${team.title}`}
          data-testid="team-delete"
          disabled={remove.busy}
          onClick={() => void onDelete()}
        >
          <Icon name="trash" />
        </button>
      )}
      <TeamMembersDetails orgId={orgId} team={team} />
    </li>
  );
}
