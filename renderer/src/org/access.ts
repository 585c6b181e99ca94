import { h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import { joinUrl, roleLabel, type DefaultLevel, type InviteLink, type OrgApi } from './org-api';
import { peopleWithAccess } from './people-access';
import { act, copyText, levelSelect, roleSelect, selectedLevel, selectedRole } from './widgets';

type Target = { space: string } | { collection: string };

/**
 * Who has access to a space or collection: the level every member of the organization gets
 * (`defaultLevel`, capped by their organization role; admins always administer), the members and
 * teams granted a role on it directly (people-access.ts), and the invite links that grant a level
 * on it. Shown to the content's admins, who may change all three.
 */
export function accessPanel(
  api: OrgApi,
  target: Target,
  defaultLevel: DefaultLevel,
  options: { inherit: boolean; title: string },
): HTMLElement {
  const kind = 'space' in target ? 'space' : 'collection';
  const id = 'space' in target ? target.space : target.collection;
  const level = levelSelect(defaultLevel, {
    label: `Access of organization members to ${options.title}`,
    testid: 'default-level',
    inheritFrom: options.inherit ? 'collection' : 'organization',
  });
  let current = defaultLevel;
  level.addEventListener('change', () => {
    const next = selectedLevel(level);
    void act(level, 'Could not change the access', () => api.setDefaultLevel(target, next)).then((done) => {
      if (done === undefined) level.value = current ?? 'none';
      else {
        current = next;
        toast(`Organization members now get ${next === null ? 'no access' : roleLabel(next)} on ${options.title}`);
      }
    });
  });
  const links = h('ul', { class: 'org-list org-links', 'data-testid': 'access-links' });
  const newLevel = roleSelect('read', { label: 'Level the new link grants', testid: 'access-link-level' });
  const create = h(
    'button',
    { type: 'button', 'data-testid': 'access-link-create', onclick: () => void createLink() },
    icon('link'),
    'Create invite link',
  );
  const render = (items: InviteLink[]) =>
    replace(
      links,
      ...items.map((link) => linkRow(api, link, () => void load())),
      items.length === 0 && h('li', { class: 'muted' }, `No invite links to this ${kind}.`),
    );
  const load = async () => {
    try {
      const list = await api.inviteLinks();
      render(list.items.filter((l) => l[kind]?.id === id));
    } catch {
      // Listing links is for organization admins; a space admin still creates them.
      replace(links);
    }
  };
  const createLink = async () => {
    const body =
      kind === 'space'
        ? { level: selectedRole(newLevel), space: id }
        : { level: selectedRole(newLevel), collection: id };
    const link = await act(create, 'Could not create the invite link', () => api.createInviteLink(body));
    if (link) {
      await load();
      if (!links.querySelector(`[data-invite-id="${link.id}"]`)) links.append(linkRow(api, link, () => void load()));
    }
  };
  void load();
  return h(
    'div',
    { class: 'org-access', 'data-testid': `${kind}-access` },
    h(
      'div',
      { class: 'org-row' },
      h('span', { class: 'org-row-main' }, icon('users'), 'Everyone in the organization'),
      level,
    ),
    h(
      'p',
      { class: 'muted' },
      'Members never get more than their organization role; organization admins always administer.',
    ),
    peopleWithAccess(api, target, options.title, true),
    h('h3', {}, 'Invite links'),
    links,
    h('div', { class: 'org-row' }, newLevel, create),
  );
}

/** One invite link: what it grants, its URL to copy, and delete. */
export function linkRow(api: OrgApi, link: InviteLink, changed: () => void): HTMLElement {
  const url = joinUrl(api.api.serverUrl, api.orgId, link.id);
  const field = h('input', {
    type: 'text',
    readonly: true,
    value: url,
    'aria-label': 'Invite link',
    'data-testid': 'invite-link-url',
  });
  const grants =
    link.role !== undefined ? `Joins as ${roleLabel(link.role)}` : `Grants ${roleLabel(link.level ?? null)}`;
  const target = link.space ? ` on ${link.space.title}` : link.collection ? ` on ${link.collection.title}` : '';
  return h(
    'li',
    { class: 'org-link-row', 'data-testid': 'invite-link', 'data-invite-id': link.id },
    h('span', { class: 'org-row-main' }, `${grants}${target}`),
    field,
    h(
      'button',
      {
        type: 'button',
        'data-testid': 'invite-link-copy',
        title: 'Copy the link',
        onclick: () => void copyText(url, field),
      },
      'Copy',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        title: 'Delete this link',
        'aria-label': 'Delete this invite link',
        'data-testid': 'invite-link-delete',
        onclick: (e: Event) =>
          void act(e.currentTarget as HTMLElement, 'Could not delete the link', () =>
            api.deleteInviteLink(link.id),
          ).then(changed),
      },
      icon('trash'),
    ),
  );
}
