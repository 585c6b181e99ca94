import { describeError } from '../api/client';
import type { Route } from '../routes';
import type { Session } from '../session';
import { errorState, h, loading, replace } from '../ui/dom';
import { accountScreen } from './account';
import { joinScreen } from './join';
import { membersScreen } from './members';
import type { OrgNavigation } from './navigation';
import { newOrgScreen } from './new-org';
import { OrgApi } from './org-api';
import { orgHome } from './org-home';
import { orgSettingsScreen } from './org-settings';
import { collectionScreen, siteScreen } from './places';
import { orgShell as shellFor } from './shell';
import { teamsScreen } from './teams';

/** The routes these screens show. */
export type OrgRoute = Exclude<Route, { view: 'picker' | 'settings' | 'sign-in' | 'space' }>;

/** The screen of an organization route, framed by the organization shell. */
export function orgScreenFor(session: Session, route: OrgRoute, nav: OrgNavigation): HTMLElement {
  switch (route.view) {
    case 'account':
      return shellFor(
        session,
        nav,
        { active: 'account' },
        accountScreen(session, () => nav.openSettings()),
      );
    case 'new-org':
      return shellFor(session, nav, {}, newOrgScreen(session, nav));
    case 'join':
      return shellFor(session, nav, {}, joinScreen(session, route.orgId, route.inviteId, nav));
    default:
      return orgPlace(session, route, nav);
  }
}

/** Home, members, teams, settings, a collection or a site: they all need the organization first. */
function orgPlace(session: Session, route: OrgRoute & { orgId: string }, nav: OrgNavigation): HTMLElement {
  const api = new OrgApi(session.api, route.orgId);
  const orgTitle = h('p', { class: 'org-nav-title', 'data-testid': 'org-nav-title' }, 'Organization');
  const content = h('div', {}, loading('organization'));
  // A collection or a site is part of the organization's content: its home tab stays marked.
  const active = route.view === 'org' ? route.tab : 'home';
  const load = async () => {
    try {
      const org = await api.org();
      orgTitle.textContent = org.title;
      document.title = `${org.title} · Folio`;
      const screen =
        route.view === 'collection'
          ? collectionScreen(api, org, route.collectionId, nav)
          : route.view === 'site'
            ? siteScreen(api, org, route.siteId, nav)
            : route.view === 'org' && route.tab === 'members'
              ? membersScreen(session, api, org, nav)
              : route.view === 'org' && route.tab === 'teams'
                ? teamsScreen(api, org)
                : route.view === 'org' && route.tab === 'settings'
                  ? orgSettingsScreen(api, org, (title) => (orgTitle.textContent = title))
                  : orgHome(api, org, nav);
      replace(content, screen);
    } catch (err) {
      replace(
        content,
        errorState(`Could not open the organization: ${describeError(err)}`, () => void load()),
      );
    }
  };
  void load();
  return shellFor(session, nav, { orgId: route.orgId, orgTitle, active }, content);
}
