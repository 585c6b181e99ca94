import type { Organization } from '../api/types';
import { useApp } from '../screens/context';
import { recentSpaces } from '../session';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useAsync, useResource } from '../ui/kit/hooks';
import { Link } from '../ui/kit/link';
import { newSpaceDialog } from '../templates/new-space-dialog';

/**
 * The parts of the space picker: the spaces opened recently on this server, and an organization's
 * card with its spaces.
 */

/** Recently opened spaces, read from the local settings (so they are listed offline too); nothing when none. */
export function RecentSpaces() {
  const { session } = useApp();
  const { state } = useAsync(() => recentSpaces(session), [session]);
  const list = state.status === 'ready' ? state.data : [];
  if (list.length === 0) return null;
  return (
    <section class="recent" aria-labelledby="picker-recent">
      <h2 id="picker-recent">Recent</h2>
      <ul class="space-list">
        {list.map((recent) => (
          <li key={recent.spaceId}>
            <Link to={{ view: 'space', spaceId: recent.spaceId }} class="space-link" data-testid="recent-space">
              {recent.title}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * One organization: its spaces (from the store the organization's own screens read, so opening it
 * next shows them without a request), "Manage" and "+ New space".
 */
export function OrgSpaces({ org }: { org: Organization }) {
  const { stores, nav } = useApp();
  const { state, retry } = useResource(stores.orgSpaces, org.id);
  const create = async () => {
    // The dialog creates the space (a refusal shows in it, with what was typed) and adds the chosen template.
    const space = await newSpaceDialog(stores, {
      heading: `New space in ${org.title}`,
      create: (title) => stores.createSpace(org.id, title),
    });
    if (space) nav.go({ view: 'space', spaceId: space.id });
  };
  const headingId = `picker-org-${org.id}`;
  return (
    <section class="org card" data-testid="org" data-org-id={org.id} aria-labelledby={headingId}>
      <header class="panel-header">
        <h2 id={headingId}>{org.title}</h2>
        <span class="org-card-actions">
          <Link
            to={{ view: 'org', orgId: org.id, tab: 'home' }}
            class="org-manage"
            data-testid="open-org"
            title={`Members, teams and access of ${org.title}`}
          >
            Manage
          </Link>
          <button type="button" data-testid="new-space" onClick={() => void create()}>
            + New space
          </button>
        </span>
      </header>
      <AsyncSection state={state} what="spaces" retry={retry}>
        {(spaces) =>
          spaces.length === 0 ? (
            <EmptyState message="No spaces yet." action={{ label: 'Create a space', run: () => void create() }} />
          ) : (
            <ul class="space-list">
              {spaces.map((space) => (
                <li key={space.id}>
                  <Link
                    to={{ view: 'space', spaceId: space.id }}
                    class="space-link"
                    data-testid="space"
                    data-space-id={space.id}
                  >
                    {space.emoji ? `${space.emoji} ` : ''}
                    {space.title || 'Untitled space'}
                  </Link>
                </li>
              ))}
            </ul>
          )
        }
      </AsyncSection>
    </section>
  );
}
