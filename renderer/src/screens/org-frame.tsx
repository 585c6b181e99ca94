import type { ComponentChildren } from 'preact';
import type { Route } from '../routes';
import { useResource, useWindowTitle } from '../ui/kit/hooks';
import { Link } from '../ui/kit/link';
import { Tabs } from '../ui/kit/tabs';
import { TopBar } from '../ui/kit/top-bar';
import { AsyncSection } from '../ui/kit/async-section';
import { useApp } from './context';
import { navigationOf, type ScreenEntry } from './registry';
import '../org/org.css';

/**
 * The organization's frame: the top bar, the organization's navigation (the registry's `org`
 * rows the caller may see) and, on a docs site's screens, the site's own tabs. The organization
 * comes from the store, so moving between its screens never refetches it, and a rename shows
 * here and in the window title at once.
 */
export function OrgFrame({
  route,
  entry,
  children,
}: {
  route: Route;
  entry: ScreenEntry;
  children: ComponentChildren;
}) {
  const { stores } = useApp();
  const orgId = (route as { orgId: string }).orgId;
  const { state, retry } = useResource(stores.org, orgId);
  const org = 'data' in state ? state.data : undefined;
  // A collection or a site is part of the organization's content: its list stays marked.
  const active =
    entry.group === 'org' ? entry.id : (entry.parent ?? (entry.frame === 'site' ? 'org-sites' : 'org-home'));
  useWindowTitle(
    org ? (entry.group === 'org' && entry.id !== 'org-home' ? `${entry.label} · ${org.title}` : org.title) : undefined,
  );
  return (
    <div class="org-screen">
      <TopBar back={{ to: { view: 'picker' }, label: 'Spaces', title: 'All spaces' }} />
      <div class="org-layout">
        <nav class="org-nav" aria-label="Organization">
          <p class="org-nav-title" data-testid="org-nav-title">
            {org?.title ?? 'Organization'}
          </p>
          <ul>
            {navigationOf('org', org).map((row) => (
              <li key={row.id}>
                <OrgNavLink row={row} orgId={orgId} active={row.id === active} />
              </li>
            ))}
          </ul>
        </nav>
        <main class="org-main">
          <AsyncSection state={state} what="the organization" retry={retry}>
            {() =>
              entry.frame === 'site' ? (
                <>
                  <Tabs
                    label="Site"
                    class="site-tabs"
                    active={entry.id}
                    items={navigationOf('site', org).map((row) => ({
                      id: row.id,
                      label: row.label,
                      testid: row.id,
                      route: { ...(route as Route & { view: 'site' }), tab: row.fixed.tab as never },
                    }))}
                  />
                  {children}
                </>
              ) : (
                children
              )
            }
          </AsyncSection>
        </main>
      </div>
    </div>
  );
}

function OrgNavLink({ row, orgId, active }: { row: ScreenEntry; orgId: string; active: boolean }) {
  const to = { view: 'org', orgId, tab: row.fixed.tab } as Route;
  // The test ids of earlier versions (`org-tab-members`), kept for scripts and tests.
  const testid = `org-tab-${row.id.replace(/^org-/, '')}`;
  return (
    <Link to={to} class="org-nav-link" data-testid={testid} aria-current={active ? 'page' : undefined}>
      {row.label}
    </Link>
  );
}
