import { useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { createInviteLink, setDefaultLevel } from '../../stores/org-writes';
import { useResource } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import { toast } from '../../ui/toast';
import { roleLabel, type AccessTarget, type DefaultLevel, type Role } from '../org-api';
import { InviteLinkRow } from './invite-link-row';
import { PeopleWithAccess } from './people-with-access';
import { LevelSelect, RoleSelect } from './role-select';
import { useAction } from './use-action';

/**
 * Who has access to a space or collection: the level every member of the organization gets
 * (`defaultLevel`, capped by their organization role; admins always administer), the members and
 * teams granted a role on it directly, and the invite links that grant a level on it. Shown to
 * the content's admins, who may change all three.
 */
export function AccessPanel(props: {
  orgId: string;
  target: AccessTarget;
  defaultLevel: DefaultLevel;
  /** Whether `inherit` means the parent collection's level (else the organization role). */
  inherit: boolean;
  title: string;
}) {
  const { stores } = useApp();
  const { target, title } = props;
  const kind = 'space' in target ? 'space' : 'collection';
  const change = useAction();
  // The level just chosen, shown while it is being saved (a refusal falls back to the stored one).
  const [pending, setPending] = useState<DefaultLevel | undefined>(undefined);
  const onLevel = (next: DefaultLevel) => {
    setPending(next);
    void change
      .run('Could not change the access', () => setDefaultLevel(stores, props.orgId, target, next).then(() => true))
      .then((done) => {
        setPending(undefined);
        if (done) toast(`Organization members now get ${next === null ? 'no access' : roleLabel(next)} on ${title}`);
      });
  };
  return (
    <div class="org-access" data-testid={`${kind}-access`}>
      <div class="org-row">
        <span class="org-row-main">
          <Icon name="users" />
          Everyone in the organization
        </span>
        <LevelSelect
          value={pending !== undefined ? pending : props.defaultLevel}
          label={`Access of organization members to ${title}`}
          testid="default-level"
          inheritFrom={props.inherit ? 'collection' : 'organization'}
          disabled={change.busy}
          onChange={onLevel}
        />
      </div>
      <p class="muted">Members never get more than their organization role; organization admins always administer.</p>
      <PeopleWithAccess orgId={props.orgId} target={target} title={title} canManage />
      <h3>Invite links</h3>
      <AccessLinks {...props} />
    </div>
  );
}

/** The invite links that grant a level on this space or collection, and a row to create one. */
function AccessLinks(props: { orgId: string; target: AccessTarget }) {
  const { stores } = useApp();
  const { target } = props;
  const kind = 'space' in target ? 'space' : 'collection';
  const id = 'space' in target ? target.space : target.collection;
  const { state } = useResource(stores.orgInviteLinks, props.orgId);
  const [level, setLevel] = useState<Role>('read');
  // Links created here, shown even when the caller may not list the organization's links.
  const [created, setCreated] = useState<{ id: string; level: Role }[]>([]);
  const create = useAction();
  const listed = state.status === 'ready' ? state.data.filter((l) => l[kind]?.id === id) : [];
  const extra = created.filter((c) => !listed.some((l) => l.id === c.id));
  const body = kind === 'space' ? { level, space: id } : { level, collection: id };
  return (
    <>
      {/* Listing links is for organization admins; a space admin still creates them (and sees those). */}
      {(state.status !== 'error' || extra.length > 0) && (
        <ul class="org-list org-links" data-testid="access-links">
          {listed.map((link) => (
            <InviteLinkRow key={link.id} orgId={props.orgId} link={link} />
          ))}
          {extra.map((c) => (
            <InviteLinkRow
              key={c.id}
              orgId={props.orgId}
              link={{ id: c.id, level: c.level }}
              onDeleted={() => setCreated((old) => old.filter((o) => o.id !== c.id))}
            />
          ))}
          {state.status === 'ready' && listed.length + extra.length === 0 && (
            <li class="muted">No invite links to this {kind}.</li>
          )}
        </ul>
      )}
      <div class="org-row">
        <RoleSelect
          value={level}
          label="Level the new link grants"
          testid="access-link-level"
          onChange={(next) => setLevel(next ?? 'read')}
        />
        <button
          type="button"
          data-testid="access-link-create"
          disabled={create.busy}
          onClick={() =>
            void create
              .run('Could not create the invite link', () => createInviteLink(stores, props.orgId, body))
              .then((link) => link && setCreated((old) => [...old, { id: link.id, level }]))
          }
        >
          <Icon name="link" />
          Create invite link
        </button>
      </div>
    </>
  );
}
