import { describeError } from '../api/client';
import { promptDialog } from '../ui/dialog';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { accessPanel } from './access';
import type { OrgNavigation } from './navigation';
import type { Collection, OrgApi, OrgDetails, SpaceSummary } from './org-api';
import { act, panel } from './widgets';

/**
 * The organization's home: its collections, its spaces (with "who has access" for those the
 * caller administers) and its docs sites, with create buttons for callers who may create content.
 */
export function orgHome(api: OrgApi, org: OrgDetails, nav: OrgNavigation): HTMLElement {
  const body = h('div', { class: 'org-sections' }, loading('spaces'));
  const root = h(
    'div',
    {},
    h('h1', { class: 'org-heading', 'data-testid': 'org-title' }, org.title),
    h(
      'p',
      { class: 'muted' },
      org.permissions.admin ? 'You administer this organization.' : 'Spaces you can open in this organization.',
    ),
    body,
  );
  const load = async () => {
    try {
      const [collections, spaces, sites] = await Promise.all([
        api.collections(),
        api.spaces(),
        api.sites().catch(() => ({ items: [] })),
      ]);
      replace(
        body,
        collectionsPanel(api, org, collections.items, spaces.items, nav),
        spacesPanel(api, org, spaces.items, nav),
        sites.items.length > 0 &&
          panel(
            'Docs sites',
            'org-sites',
            null,
            h(
              'ul',
              { class: 'org-list' },
              ...sites.items.map((site) =>
                h(
                  'li',
                  {},
                  nav.link(
                    { view: 'site', orgId: org.id, siteId: site.id },
                    { class: 'org-item-link', 'data-testid': 'org-site' },
                    icon('globe'),
                    site.title || 'Untitled site',
                  ),
                  h('span', { class: 'badge' }, site.published ? 'Published' : 'Not published'),
                ),
              ),
            ),
          ),
      );
    } catch (err) {
      replace(
        body,
        errorState(`Could not list the organization's content: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return root;
}

function collectionsPanel(
  api: OrgApi,
  org: OrgDetails,
  collections: Collection[],
  spaces: SpaceSummary[],
  nav: OrgNavigation,
): HTMLElement {
  const count = (id: string) => spaces.filter((s) => s.parent === id).length;
  const create = async (button: HTMLElement | null) => {
    const title = await promptDialog(`New collection in ${org.title}`, '', 'Create');
    if (!title) return;
    const collection = await act(button, 'Could not create the collection', () => api.createCollection(title));
    if (collection) nav.go({ view: 'collection', orgId: org.id, collectionId: collection.id });
  };
  const button =
    org.permissions.createContent &&
    h(
      'button',
      {
        type: 'button',
        'data-testid': 'new-collection',
        onclick: (e: Event) => void create(e.currentTarget as HTMLElement),
      },
      icon('plus'),
      'New collection',
    );
  return panel(
    'Collections',
    'org-collections',
    button,
    collections.length === 0
      ? h(
          'p',
          { class: 'muted' },
          'No collections yet. Collections group spaces and share access to all of them at once.',
        )
      : h(
          'ul',
          { class: 'org-list' },
          ...collections.map((c) =>
            h(
              'li',
              {},
              nav.link(
                { view: 'collection', orgId: org.id, collectionId: c.id },
                { class: 'org-item-link', 'data-testid': 'org-collection', 'data-collection-id': c.id },
                icon('layers'),
                c.title || 'Untitled collection',
              ),
              h('span', { class: 'org-count' }, `${count(c.id)} space${count(c.id) === 1 ? '' : 's'}`),
            ),
          ),
        ),
  );
}

/** The spaces of an organization or collection, each with its access settings when the caller administers it. */
export function spacesPanel(
  api: OrgApi,
  org: OrgDetails,
  spaces: SpaceSummary[],
  nav: OrgNavigation,
  options: { parent?: string; canCreate?: boolean } = {},
): HTMLElement {
  const create = async (button: HTMLElement | null) => {
    const title = await promptDialog('New space', '', 'Create');
    if (!title) return;
    const space = await act(button, 'Could not create the space', () => api.createSpace(title, options.parent));
    if (space) nav.go({ view: 'space', spaceId: space.id });
  };
  const canCreate = options.canCreate ?? org.permissions.createContent;
  const button =
    canCreate &&
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-testid': 'org-new-space',
        onclick: (e: Event) => void create(e.currentTarget as HTMLElement),
      },
      icon('plus'),
      'New space',
    );
  const shown = options.parent ? spaces : spaces.filter((s) => !s.parent);
  const inCollections = spaces.length - shown.length;
  return panel(
    'Spaces',
    'org-spaces',
    button,
    shown.length === 0
      ? inCollections > 0
        ? h('p', { class: 'muted' }, 'Every space is in a collection above.')
        : empty('No spaces yet.')
      : h('ul', { class: 'org-list' }, ...shown.map((s) => spaceRow(api, s, nav))),
    shown.length > 0 && inCollections > 0 && h('p', { class: 'muted' }, `${inCollections} more in collections above.`),
  );
}

function spaceRow(api: OrgApi, space: SpaceSummary, nav: OrgNavigation): HTMLElement {
  const title = `${space.emoji ? `${space.emoji} ` : ''}${space.title || 'Untitled space'}`;
  const row = h(
    'li',
    { 'data-testid': 'org-space', 'data-space-id': space.id },
    nav.link({ view: 'space', spaceId: space.id }, { class: 'org-item-link' }, icon('book-open'), title),
  );
  if (space.permissions.admin) {
    const details = h(
      'details',
      { class: 'org-access-details' },
      h(
        'summary',
        { 'data-testid': 'space-access-toggle', 'aria-label': `Who has access to ${title}` },
        icon('shield'),
        'Access',
      ),
    );
    let built = false;
    details.addEventListener('toggle', () => {
      if (!details.open || built) return;
      built = true;
      details.append(
        accessPanel(api, { space: space.id }, space.defaultLevel, { inherit: Boolean(space.parent), title }),
      );
    });
    row.append(details);
  }
  return row;
}
