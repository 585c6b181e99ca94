import { useRef, useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { setTeamMembership } from '../../stores/org-writes';
import { AsyncSection } from '../../ui/kit/async-section';
import { useResource } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import { toast } from '../../ui/toast';
import type { Team, TeamMember } from '../org-api';
import { Avatar } from './avatar';
import { useAction } from './use-action';

/**
 * A team's members, opened from its row: the list (owners marked), and for those who administer
 * the team (organization admins, the team's owners) a remove button per member and a select to
 * add one of the organization's members. Loaded on first open, like the access panels.
 */
export function TeamMembersDetails({ orgId, team }: { orgId: string; team: Team }) {
  const [opened, setOpened] = useState(false);
  return (
    <details class="org-access-details org-team-members" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary data-testid="team-members-toggle" aria-label={`Members of ${team.title}`}>
        <Icon name="users" />
        Members
      </summary>
      {opened && <TeamMembersPanel orgId={orgId} team={team} />}
    </details>
  );
}

function TeamMembersPanel({ orgId, team }: { orgId: string; team: Team }) {
  const { stores } = useApp();
  const members = useResource(stores.teamMembers, [orgId, team.id] as [string, string]);
  return (
    <div class="org-access" data-testid="team-members-panel">
      <AsyncSection state={members.state} what="members" retry={members.retry}>
        {(list) => (
          <>
            <ul class="org-list" data-testid="team-member-list">
              {list.map((m) => (
                <TeamMemberRow key={m.organization.id} orgId={orgId} team={team} member={m} />
              ))}
              {list.length === 0 && <li class="muted">Nobody is in this team yet.</li>}
            </ul>
            {team.permissions.admin && <AddTeamMember orgId={orgId} team={team} inTeam={list} />}
          </>
        )}
      </AsyncSection>
    </div>
  );
}

function TeamMemberRow({ orgId, team, member }: { orgId: string; team: Team; member: TeamMember }) {
  const { stores } = useApp();
  const remove = useAction();
  const user = member.organization.user;
  const name = user.displayName || user.email || member.organization.id;
  return (
    <li class="org-row" data-testid="team-member" data-user-id={member.organization.id}>
      <Avatar name={name} />
      <span class="org-row-main">
        <strong>{name}</strong>
      </span>
      {member.team.role === 'owner' && <span class="badge">Owner</span>}
      {team.permissions.admin && (
        <button
          type="button"
          class="icon-button"
          title={`Remove ${name} from ${team.title}`}
          aria-label={`Remove ${name} from ${team.title}`}
          data-testid="team-member-remove"
          disabled={remove.busy}
          onClick={() =>
            void remove
              .run('Could not remove the member', () =>
                setTeamMembership(stores, orgId, team.id, member.organization.id, false).then(() => true),
              )
              .then((done) => done && toast(`${name} left ${team.title}`))
          }
        >
          <Icon name="x" />
        </button>
      )}
    </li>
  );
}

/** The organization's members not yet in the team, to add one. */
function AddTeamMember({ orgId, team, inTeam }: { orgId: string; team: Team; inTeam: TeamMember[] }) {
  const { stores } = useApp();
  const everyone = useResource(stores.orgMembers, orgId).state;
  const [userId, setUserId] = useState('');
  const field = useRef<HTMLSelectElement>(null);
  const add = useAction();
  const taken = new Set(inTeam.map((m) => m.organization.id));
  const choices =
    everyone.status === 'ready'
      ? everyone.data
          .filter((m) => !taken.has(m.id))
          .map((m) => ({ id: m.id, name: m.user.displayName || m.user.email || m.id }))
      : [];
  const submit = async () => {
    if (!userId) {
      toast('Choose a member first', 'error');
      field.current?.focus();
      return;
    }
    const name = choices.find((c) => c.id === userId)?.name ?? 'The member';
    const done = await add.run('Could not add the member', () =>
      setTeamMembership(stores, orgId, team.id, userId, true).then(() => true),
    );
    if (!done) return;
    toast(`${name} joined ${team.title}`);
    setUserId('');
  };
  return (
    <div class="org-row org-access-add">
      <select
        ref={field}
        aria-label={`Member to add to ${team.title}`}
        data-testid="team-member-add-who"
        value={userId}
        disabled={everyone.status === 'error'}
        onChange={(e) => setUserId(e.currentTarget.value)}
      >
        <option value="">Add a member…</option>
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <button type="button" data-testid="team-member-add" disabled={add.busy} onClick={() => void submit()}>
        <Icon name="plus" />
        Add
      </button>
    </div>
  );
}
