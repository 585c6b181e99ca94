import { describeError } from '../api/client';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { accessPanel } from './access';
import type { OrgNavigation } from './navigation';
import type { OrgApi, OrgDetails } from './org-api';
import { spacesPanel } from './org-home';
import { panel } from './widgets';

/** A collection (`urls.app` of a collection): its spaces and who has access to it. */
export function collectionScreen(api: OrgApi, org: OrgDetails, collectionId: string, nav: OrgNavigation): HTMLElement {
  const root = h('div', {}, loading('collection'));
  const load = async () => {
    try {
      const [collection, spaces] = await Promise.all([
        api.collection(collectionId),
        api.collectionSpaces(collectionId),
      ]);
      const title = collection.title || 'Untitled collection';
      replace(
        root,
        h(
          'p',
          { class: 'org-crumbs' },
          nav.link({ view: 'org', orgId: org.id, tab: 'home' }, { 'data-testid': 'crumb-org' }, org.title),
          ' / ',
          'Collection',
        ),
        h('h1', { class: 'org-heading', 'data-testid': 'collection-title' }, icon('layers'), title),
        collection.description && h('p', { class: 'muted' }, collection.description),
        spacesPanel(api, org, spaces.items, nav, { parent: collection.id, canCreate: collection.permissions.create }),
        collection.permissions.admin &&
          panel(
            'Who has access',
            'collection-access-panel',
            null,
            accessPanel(api, { collection: collection.id }, collection.defaultLevel, {
              inherit: Boolean(collection.parent),
              title,
            }),
          ),
      );
    } catch (err) {
      replace(
        root,
        errorState(`Could not open the collection: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return root;
}

/** A docs site (`urls.app` of a site): what it publishes and where. */
export function siteScreen(api: OrgApi, org: OrgDetails, siteId: string, nav: OrgNavigation): HTMLElement {
  const root = h('div', {}, loading('site'));
  const load = async () => {
    try {
      const site = await api.site(siteId);
      const published = site.urls.published;
      replace(
        root,
        h(
          'p',
          { class: 'org-crumbs' },
          nav.link({ view: 'org', orgId: org.id, tab: 'home' }, { 'data-testid': 'crumb-org' }, org.title),
          ' / ',
          'Docs site',
        ),
        h('h1', { class: 'org-heading', 'data-testid': 'site-title' }, icon('globe'), site.title || 'Untitled site'),
        panel(
          'Publishing',
          'site-publishing',
          null,
          h(
            'dl',
            { class: 'org-facts' },
            h('dt', {}, 'Status'),
            h('dd', {}, site.published ? 'Published' : 'Not published'),
            h('dt', {}, 'Visibility'),
            h('dd', {}, site.visibility),
            h('dt', {}, 'Spaces'),
            h('dd', {}, String(site.siteSpaces)),
            published && h('dt', {}, 'Address'),
            published &&
              h(
                'dd',
                {},
                h('a', { href: published, target: '_blank', rel: 'noopener' }, published, icon('external-link')),
              ),
          ),
        ),
      );
    } catch (err) {
      replace(
        root,
        errorState(`Could not open the site: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return root;
}
