import { useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { createSpace } from '../../stores/org-writes';
import { newSpaceDialog } from '../../templates/new-space-dialog';
import { EmptyState } from '../../ui/kit/async-section';
import { Icon } from '../../ui/kit/icon';
import { Link } from '../../ui/kit/link';
import type { SpaceSummary } from '../org-api';
import { AccessPanel } from './access-panel';
import { Panel } from './panel';
import { useAction } from './use-action';

/**
 * The spaces of an organization (those in no collection) or of one collection (`parent`), each
 * with its access settings when the caller administers it, and "New space" for those who may
 * create one.
 */
export function SpacesPanel(props: { orgId: string; spaces: SpaceSummary[]; parent?: string; canCreate: boolean }) {
  const { stores, nav } = useApp();
  const create = useAction();
  const newSpace = async () => {
    // The dialog creates the space (a refusal shows in it) and adds the chosen template.
    const space = await create.run('Could not create the space', () =>
      newSpaceDialog(stores, {
        heading: 'New space',
        create: (title) => createSpace(stores, props.orgId, title, props.parent),
      }),
    );
    if (space) nav.go({ view: 'space', spaceId: space.id });
  };
  const shown = props.spaces.filter((s) => (props.parent ? s.parent === props.parent : !s.parent));
  const inCollections = props.parent ? 0 : props.spaces.length - shown.length;
  return (
    <Panel
      title="Spaces"
      testid="org-spaces"
      action={
        props.canCreate && (
          <button
            type="button"
            class="primary"
            data-testid="org-new-space"
            disabled={create.busy}
            onClick={() => void newSpace()}
          >
            <Icon name="plus" />
            New space
          </button>
        )
      }
    >
      {shown.length === 0 ? (
        inCollections > 0 ? (
          <p class="muted">Every space is in a collection above.</p>
        ) : (
          <EmptyState message="No spaces yet." />
        )
      ) : (
        <ul class="org-list">
          {shown.map((space) => (
            <SpaceRow key={space.id} orgId={props.orgId} space={space} />
          ))}
        </ul>
      )}
      {shown.length > 0 && inCollections > 0 && <p class="muted">{inCollections} more in collections above.</p>}
    </Panel>
  );
}

function SpaceRow({ orgId, space }: { orgId: string; space: SpaceSummary }) {
  // The access panel loads its lists: built on first open only, then kept while the row lives.
  const [opened, setOpened] = useState(false);
  const title = `${space.emoji ? `${space.emoji} ` : ''}${space.title || 'Untitled space'}`;
  return (
    <li data-testid="org-space" data-space-id={space.id}>
      <Link to={{ view: 'space', spaceId: space.id }} class="org-item-link">
        <Icon name="book-open" />
        {title}
      </Link>
      {space.permissions.admin && (
        <details class="org-access-details" onToggle={(event) => event.currentTarget.open && setOpened(true)}>
          <summary data-testid="space-access-toggle" aria-label={`Who has access to ${title}`}>
            <Icon name="shield" />
            Access
          </summary>
          {opened && (
            <AccessPanel
              orgId={orgId}
              target={{ space: space.id }}
              defaultLevel={space.defaultLevel}
              inherit={Boolean(space.parent)}
              title={title}
            />
          )}
        </details>
      )}
    </li>
  );
}
