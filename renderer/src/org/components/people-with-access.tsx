import { useRef, useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { grantAccess, removeGrant, setGrant } from '../../stores/org-writes';
import { AsyncSection } from '../../ui/kit/async-section';
import { useResource } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import { toast } from '../../ui/toast';
import { roleLabel, type AccessTarget, type Role } from '../org-api';
import { Avatar } from './avatar';
import { RoleSelect } from './role-select';
import { useAction } from './use-action';

/**
 * "People with access" of a space or collection: the members and teams granted a role on it
 * directly (on top of what the organization's default level gives), each with its role to change
 * and a remove button, and a row to add a member or a team with a role. Whoever sees the content
 * sees the list; `canManage` (its admins) shows the controls.
 */
export function PeopleWithAccess(props: { orgId: string; target: AccessTarget; title: string; canManage: boolean }) {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.accessGrants, props.target);
  return (
    <div class="org-people-access" data-testid="access-people-section">
      <h3>People with access</h3>
      <AsyncSection state={state} what="who has access" retry={retry}>
        {(grants) => (
          <ul class="org-list" data-testid="access-people">
            {grants.users.map((g) => {
              const name = g.user.displayName || g.user.email || g.user.id;
              return (
                <li key={`u:${g.user.id}`} class="org-row" data-testid="access-person" data-user-id={g.user.id}>
                  <Avatar name={name} />
                  <span class="org-row-main org-member-who">
                    <strong>{name}</strong>
                    {g.user.email && <span class="muted">{g.user.email}</span>}
                  </span>
                  <GrantControls {...props} kind="users" id={g.user.id} name={name} role={g.permission} />
                </li>
              );
            })}
            {grants.teams.map((g) => (
              <li key={`t:${g.team.id}`} class="org-row" data-testid="access-team" data-team-id={g.team.id}>
                <Icon name="users" />
                <span class="org-row-main org-member-who">
                  <strong>{g.team.title}</strong>
                  <span class="muted">{`Team · ${g.team.members} member${g.team.members === 1 ? '' : 's'}`}</span>
                </span>
                <GrantControls
                  {...props}
                  kind="teams"
                  id={g.team.id}
                  name={`the team ${g.team.title}`}
                  role={g.permission}
                />
              </li>
            ))}
            {grants.users.length + grants.teams.length === 0 && (
              <li class="muted" data-testid="access-people-empty">
                Nobody has been given access to {props.title} directly.
              </li>
            )}
          </ul>
        )}
      </AsyncSection>
      {props.canManage && <AddAccess {...props} />}
    </div>
  );
}

/** The role select and remove button of one grant (or just its role when the caller cannot manage). */
function GrantControls(props: {
  target: AccessTarget;
  title: string;
  canManage: boolean;
  kind: 'users' | 'teams';
  id: string;
  name: string;
  role: Role;
}) {
  const { stores } = useApp();
  const change = useAction();
  const remove = useAction();
  if (!props.canManage) return <span class="badge">{roleLabel(props.role)}</span>;
  return (
    <>
      <RoleSelect
        value={props.role}
        label={`Role of ${props.name} on ${props.title}`}
        testid="access-person-role"
        disabled={change.busy}
        onChange={(next) => {
          const role = next ?? 'read';
          void change
            .run('Could not change the role', () => setGrant(stores, props.target, props.kind, props.id, role))
            .then((done) => done !== undefined && toast(`${props.name} now has ${roleLabel(role)} access`));
        }}
      />
      <button
        type="button"
        class="icon-button"
        title={`Remove ${props.name}'s access`}
        aria-label={`Remove ${props.name}'s access to ${props.title}`}
        data-testid="access-person-remove"
        disabled={remove.busy}
        onClick={() =>
          void remove.run('Could not remove the access', () => removeGrant(stores, props.target, props.kind, props.id))
        }
      >
        <Icon name="trash" />
      </button>
    </>
  );
}

/** Pick a member or a team, a role, and add them. */
function AddAccess(props: { orgId: string; target: AccessTarget; title: string }) {
  const { stores } = useApp();
  const members = useResource(stores.orgMembers, props.orgId).state;
  const teams = useResource(stores.orgTeams, props.orgId).state;
  const [who, setWho] = useState('');
  const whoField = useRef<HTMLSelectElement>(null);
  const [role, setRole] = useState<Role>('read');
  const add = useAction();
  const memberList = members.status === 'ready' ? members.data : [];
  const teamList = teams.status === 'ready' ? teams.data : [];
  const nameOf = (value: string) => {
    const [kind, id] = value.split(':');
    return kind === 'users'
      ? memberList.find((m) => m.id === id)?.user.displayName
      : teamList.find((t) => t.id === id)?.title;
  };
  const submit = async () => {
    const [kind, id] = who.split(':') as ['users' | 'teams', string | undefined];
    if (!id) {
      toast('Choose a member or a team first', 'error');
      whoField.current?.focus();
      return;
    }
    const body = kind === 'users' ? { role, users: [id] } : { role, teams: [id] };
    if (
      (await add.run('Could not give access', () => grantAccess(stores, props.target, body).then(() => true))) !==
      undefined
    ) {
      toast(`${nameOf(who) ?? 'They'} now has ${roleLabel(role)} access`);
      setWho('');
    }
  };
  return (
    <div class="org-row org-access-add">
      <select
        ref={whoField}
        aria-label={`Member or team to give access to ${props.title}`}
        data-testid="access-add-who"
        value={who}
        // Guests and members who may not list the organization's members cannot pick anyone.
        disabled={members.status === 'error'}
        onChange={(event) => setWho(event.currentTarget.value)}
      >
        <option value="">Add a member or team…</option>
        {memberList.length > 0 && (
          <optgroup label="Members">
            {memberList.map((m) => (
              <option key={m.id} value={`users:${m.id}`}>
                {m.user.displayName || m.user.email || m.id}
              </option>
            ))}
          </optgroup>
        )}
        {teamList.length > 0 && (
          <optgroup label="Teams">
            {teamList.map((t) => (
              <option key={t.id} value={`teams:${t.id}`}>
                {t.title}
              </option>
            ))}
          </optgroup>
        )}
      </select>
      <RoleSelect
        value={role}
        label="Role to give"
        testid="access-add-role"
        onChange={(next) => setRole(next ?? 'read')}
      />
      <button type="button" data-testid="access-add" disabled={add.busy} onClick={() => void submit()}>
        <Icon name="plus" />
        Add
      </button>
    </div>
  );
}
