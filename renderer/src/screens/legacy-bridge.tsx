import { orgNavigation, type OrgNavigation } from '../org/navigation';
import { OrgApi, type OrgDetails } from '../org/org-api';
import { Imperative } from '../ui/kit/imperative';
import type { Navigation } from './context';
import { useApp } from './context';

/**
 * TEMPORARY bridge while screens move to components: draws a screen still built with `h`. Every
 * use of it is a screen not yet migrated; the migration deletes this file.
 */
export function LegacyScreen(props: { build: (nav: OrgNavigation) => HTMLElement; deps: unknown[] }) {
  const { nav } = useApp();
  return <Imperative deps={props.deps} create={(host) => void host.append(props.build(toOrgNavigation(nav)))} />;
}

export function toOrgNavigation(nav: Navigation): OrgNavigation {
  return orgNavigation({
    go: (r) => nav.go(r),
    href: (r) => nav.href(r),
    signOut: () => nav.signOut(),
    openSettings: () => nav.openSettings(),
  });
}

/** A legacy organization screen, given the organization from the store. */
export function LegacyOrgScreen(props: {
  orgId: string;
  build: (api: OrgApi, org: OrgDetails, nav: OrgNavigation) => HTMLElement;
  deps?: unknown[];
}) {
  const { session, stores } = useApp();
  const org = stores.org.peek(props.orgId);
  if (!org) return null;
  return (
    <LegacyScreen
      deps={[props.orgId, org, ...(props.deps ?? [])]}
      build={(nav) => props.build(new OrgApi(session.api, props.orgId), org, nav)}
    />
  );
}
