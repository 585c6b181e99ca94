import { useState } from 'preact/hooks';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { saveOrgSettings } from '../stores/org-writes';
import { useResource } from '../ui/kit/hooks';
import { toast } from '../ui/toast';
import { Panel } from './components/panel';
import { RoleSelect } from './components/role-select';
import { useAction } from './components/use-action';
import type { OrgDetails, Role } from './org-api';

/**
 * The organization's own settings (admins): its name, the role new members get, invite links
 * on/off. A new name shows in the navigation and the window title as soon as it is saved.
 */
export default function OrgSettingsScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { stores } = useApp();
  const org = useResource(stores.org, orgId).state;
  if (!('data' in org) || !org.data) return null;
  const admin = org.data.permissions.admin;
  return (
    <div>
      <h1 class="org-heading" data-testid="org-settings-title">
        Settings
      </h1>
      {!admin && <p class="muted">Only administrators change these settings.</p>}
      <Panel title="Organization" testid="org-settings">
        {/* Keyed by the organization: the form starts from its saved values. */}
        <SettingsForm key={org.data.id} org={org.data} />
      </Panel>
    </div>
  );
}

function SettingsForm({ org }: { org: OrgDetails }) {
  const { stores } = useApp();
  const admin = org.permissions.admin;
  const [title, setTitle] = useState(org.title);
  const [defaultRole, setDefaultRole] = useState<Role | null>(org.defaultRole);
  const [inviteLinks, setInviteLinks] = useState(org.inviteLinks);
  const save = useAction();
  const submit = async () => {
    const updated = await save.run('Could not save the settings', () =>
      saveOrgSettings(stores, org.id, { title: title.trim(), defaultRole, inviteLinks }),
    );
    if (!updated) return;
    setTitle(updated.title);
    toast('Settings saved');
  };
  return (
    <form
      class="org-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label>
        Name
        <input
          type="text"
          value={title}
          minLength={2}
          maxLength={255}
          required
          disabled={!admin}
          data-testid="org-title-input"
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
      </label>
      <label>
        Role of people who join
        <RoleSelect
          value={defaultRole}
          label="Role of new members"
          testid="org-default-role"
          guest
          disabled={!admin}
          onChange={setDefaultRole}
        />
      </label>
      <label class="toggle">
        <input
          type="checkbox"
          checked={inviteLinks}
          disabled={!admin}
          data-testid="org-invite-links-toggle"
          onChange={(event) => setInviteLinks(event.currentTarget.checked)}
        />
        Allow invite links
      </label>
      <button type="submit" class="primary" disabled={!admin || save.busy} data-testid="org-settings-save">
        Save
      </button>
    </form>
  );
}
