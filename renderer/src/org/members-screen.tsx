import { useRef, useState } from 'preact/hooks';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { createInviteLink, inviteByEmail, removeMember, setMemberRole } from '../stores/org-writes';
import { AsyncSection } from '../ui/kit/async-section';
import { confirmDialog } from '../ui/kit/dialog';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { toast } from '../ui/toast';
import { Avatar } from './components/avatar';
import { InviteLinkRow } from './components/invite-link-row';
import { Panel } from './components/panel';
import { RoleSelect } from './components/role-select';
import { useAction } from './components/use-action';
import { roleLabel, type Member, type OrgDetails, type Role } from './org-api';

/**
 * Members of an organization: invite by email and by link (admins), the list with roles,
 * changing a role and removing a member (admins), leaving (oneself).
 */
export default function MembersScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { stores } = useApp();
  const org = useResource(stores.org, orgId).state;
  const members = useResource(stores.orgMembers, orgId);
  if (!('data' in org) || !org.data) return null;
  const details = org.data;
  const admin = details.permissions.admin;
  return (
    <div>
      <h1 class="org-heading" data-testid="members-title">
        Members
      </h1>
      {admin && <InviteByEmail orgId={orgId} />}
      {admin && <InviteLinks org={details} />}
      <Panel title="People" testid="org-people">
        <div data-testid="member-list">
          <AsyncSection state={members.state} what="members" retry={members.retry}>
            {(list) => {
              const sorted = [...list].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
              return (
                <>
                  <p class="muted">{`${list.length} member${list.length === 1 ? '' : 's'}`}</p>
                  <ul class="org-list org-members">
                    {sorted.map((m) => (
                      <MemberRow key={m.id} org={details} member={m} />
                    ))}
                  </ul>
                </>
              );
            }}
          </AsyncSection>
        </div>
      </Panel>
    </div>
  );
}

const nameOf = (m: Member) => m.user.displayName || m.user.email || m.id;

function MemberRow({ org, member }: { org: OrgDetails; member: Member }) {
  const { session, stores, nav } = useApp();
  const name = nameOf(member);
  const self = member.id === session.userId;
  const admin = org.permissions.admin;
  const change = useAction();
  const remove = useAction();
  // The role just chosen, shown while it is saved; a refusal falls back to the stored role.
  const [pending, setPending] = useState<{ role: Role | null } | undefined>(undefined);
  const onRole = (next: Role | null) => {
    setPending({ role: next });
    void change
      .run(`Could not change the role of ${name}`, () => setMemberRole(stores, org.id, member.id, next))
      .then((done) => {
        setPending(undefined);
        if (done) toast(`${name} is now ${roleLabel(next)}`);
      });
  };
  const onRemove = async () => {
    const question = self
      ? `Leave ${org.title}? You will lose access to its spaces.`
      : `Remove ${name} from ${org.title}?`;
    if (!(await confirmDialog(question, self ? 'Leave' : 'Remove'))) return;
    const done = await remove.run(self ? 'Could not leave' : `Could not remove ${name}`, () =>
      removeMember(stores, org.id, member.id, self).then(() => true),
    );
    if (done && self) nav.go({ view: 'picker' });
  };
  return (
    <li class="org-member" data-testid="member" data-user-id={member.id}>
      <Avatar name={name} />
      <span class="org-row-main org-member-who">
        <strong>
          {name}
          {self ? ' (you)' : ''}
        </strong>
        {member.user.email && <span class="muted">{member.user.email}</span>}
      </span>
      {admin ? (
        <RoleSelect
          value={pending ? pending.role : member.role}
          label={`Role of ${name}`}
          testid="member-role"
          guest
          disabled={change.busy}
          onChange={onRole}
        />
      ) : (
        <span class="badge" data-testid="member-role-label">
          {roleLabel(member.role)}
        </span>
      )}
      {(admin || self) && (
        <button
          type="button"
          class="icon-button"
          title={self ? 'Leave the organization' : `Remove ${name}`}
          aria-label={self ? 'Leave the organization' : `Remove ${name}`}
          data-testid="member-remove"
          disabled={remove.busy}
          onClick={() => void onRemove()}
        >
          <Icon name={self ? 'log-out' : 'trash'} />
        </button>
      )}
    </li>
  );
}

function InviteByEmail({ orgId }: { orgId: string }) {
  const { stores } = useApp();
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<Role | null>('read');
  const field = useRef<HTMLInputElement>(null);
  const send = useAction();
  const submit = async () => {
    const list = emails.split(/[\s,;]+/).filter(Boolean);
    if (list.length === 0) {
      toast('Type one or more email addresses to invite', 'error');
      field.current?.focus();
      return;
    }
    const result = await send.run('Could not send the invites', () => inviteByEmail(stores, orgId, list, role));
    if (!result) return;
    setEmails('');
    const parts = [
      result.users.length > 0 && `${result.users.length} added right away`,
      result.invited > 0 && `${result.invited} invited by email`,
    ].filter(Boolean);
    toast(parts.length ? parts.join(', ') : 'Everyone was already a member');
  };
  return (
    <Panel title="Invite by email" testid="org-invite-email">
      <p class="muted">People with an account join at once; others get an email with a link to join.</p>
      <form
        class="org-row org-invite-form"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <input
          ref={field}
          type="text"
          placeholder="jane@example.com, joe@example.com"
          aria-label="Email addresses to invite"
          data-testid="invite-emails"
          autocomplete="off"
          value={emails}
          onInput={(event) => setEmails(event.currentTarget.value)}
        />
        <RoleSelect value={role} label="Role of the people invited" testid="invite-role" guest onChange={setRole} />
        <button type="submit" class="primary" data-testid="invite-send" disabled={send.busy}>
          <Icon name="mail" />
          Invite
        </button>
      </form>
    </Panel>
  );
}

function InviteLinks({ org }: { org: OrgDetails }) {
  const { stores } = useApp();
  const links = useResource(stores.orgInviteLinks, org.id);
  const [role, setRole] = useState<Role | null>(org.defaultRole ?? 'read');
  const create = useAction();
  return (
    <Panel title="Invite links" testid="org-invite-links-panel">
      <p class="muted">Anyone signed in who opens a link joins with its role. Delete a link to stop it working.</p>
      <div class="org-row">
        <RoleSelect
          value={role}
          label="Role of people joining with the link"
          testid="invite-link-role"
          guest
          onChange={setRole}
        />
        <button
          type="button"
          data-testid="invite-link-create"
          disabled={create.busy}
          onClick={() => void create.run('Could not create the link', () => createInviteLink(stores, org.id, { role }))}
        >
          <Icon name="link" />
          Create link
        </button>
      </div>
      <AsyncSection state={links.state} what="invite links" retry={links.retry}>
        {(all) => {
          // Links to a space or collection are listed with its access.
          const ofOrg = all.filter((l) => !l.space && !l.collection);
          return (
            <ul class="org-list org-links" data-testid="org-invite-links">
              {ofOrg.map((l) => (
                <InviteLinkRow key={l.id} orgId={org.id} link={l} />
              ))}
              {ofOrg.length === 0 && <li class="muted">No invite links yet.</li>}
            </ul>
          );
        }}
      </AsyncSection>
    </Panel>
  );
}
