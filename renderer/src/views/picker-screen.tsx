import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useResource, useWindowTitle } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { TopBar } from '../ui/kit/top-bar';
import { OrgSpaces, RecentSpaces } from './picker';

/**
 * The start screen: recently opened spaces, then every organization the account belongs to with
 * its spaces, and the way to a new organization.
 */
export default function PickerScreen() {
  const { stores, nav } = useApp();
  const { state, retry } = useResource(stores.orgs, 'mine');
  useWindowTitle(undefined);
  return (
    <div class="picker">
      <TopBar title={<h1>Folio</h1>}>
        {/* A plus alone on a phone, so the bar keeps to one row there. */}
        <Link to={{ view: 'new-org' }} class="org-top-link" data-testid="new-org" title="New organization">
          <Icon name="plus" />
          <span class="hide-narrow">New organization</span>
        </Link>
      </TopBar>
      <main class="picker-body">
        <RecentSpaces />
        <section class="orgs" data-testid="org-list" aria-label="Organizations">
          <AsyncSection state={state} what="organizations" retry={retry}>
            {(orgs) =>
              orgs.length === 0 ? (
                <EmptyState
                  message="This account is not a member of any organization yet. Create one, or ask an administrator to invite you."
                  action={{
                    label: 'Create an organization',
                    run: () => nav.go({ view: 'new-org' }),
                    testid: 'empty-new-org',
                  }}
                />
              ) : (
                orgs.map((org) => <OrgSpaces key={org.id} org={org} />)
              )
            }
          </AsyncSection>
        </section>
      </main>
    </div>
  );
}
