import { h } from '../ui/dom';
import { toast } from '../ui/toast';
import type { OrgApi, OrgDetails } from './org-api';
import { act, panel, roleSelect, selectedRole } from './widgets';

/** The organization's own settings (admins): its name, the role new members get, invite links on/off. */
export function orgSettingsScreen(api: OrgApi, org: OrgDetails, renamed: (title: string) => void): HTMLElement {
  const admin = org.permissions.admin;
  const title = h('input', {
    type: 'text',
    value: org.title,
    minlength: 2,
    maxlength: 255,
    required: true,
    disabled: !admin,
    'data-testid': 'org-title-input',
  });
  const defaultRole = roleSelect(org.defaultRole, {
    label: 'Role of new members',
    testid: 'org-default-role',
    guest: true,
    disabled: !admin,
  });
  const links = h('input', {
    type: 'checkbox',
    checked: org.inviteLinks,
    disabled: !admin,
    'data-testid': 'org-invite-links-toggle',
  });
  const save = h(
    'button',
    { type: 'submit', class: 'primary', disabled: !admin, 'data-testid': 'org-settings-save' },
    'Save',
  );
  const form = h(
    'form',
    { class: 'org-form' },
    h('label', {}, 'Name', title),
    h('label', {}, 'Role of people who join', defaultRole),
    h('label', { class: 'toggle' }, links, 'Allow invite links'),
    save,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = { title: title.value.trim(), defaultRole: selectedRole(defaultRole), inviteLinks: links.checked };
    void act(save, 'Could not save the settings', () =>
      api.api.request<OrgDetails>(`/orgs/${org.id}`, { method: 'PATCH', body }),
    ).then((updated) => {
      if (!updated) return;
      toast('Settings saved');
      renamed(updated.title);
    });
  });
  return h(
    'div',
    {},
    h('h1', { class: 'org-heading', 'data-testid': 'org-settings-title' }, 'Settings'),
    !admin && h('p', { class: 'muted' }, 'Only administrators change these settings.'),
    panel('Organization', 'org-settings', null, form),
  );
}
