import { useState } from 'preact/hooks';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { Icon } from '../ui/kit/icon';
import { TabPanel, Tabs } from '../ui/kit/tabs';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import type { CrListKind } from './cr-api';
import { STATUS_LABEL } from './cr-detail';
import type { CrNavigation } from './cr-navigation';
import type { ChangeRequestStores } from './cr-stores';
import '../ui/kit/underline-tabs.css';

const LIST_TABS: { id: CrListKind; label: string }[] = [
  { id: 'active', label: 'Open' },
  { id: 'merged', label: 'Merged' },
  { id: 'archived', label: 'Closed' },
];

const NONE: Record<CrListKind, string> = {
  active: 'No open change requests. Edits go straight to the space.',
  merged: 'No merged change requests yet.',
  archived: 'No closed change requests.',
};

/** On the space's main content: "New change request" and the open, merged and closed lists. */
export function ChangeRequestLists(props: {
  stores: ChangeRequestStores;
  spaceId: string;
  nav: CrNavigation;
  onCreate: () => void;
}) {
  const [kind, setKind] = useState<CrListKind>('active');
  const key: [string, CrListKind] = [props.spaceId, kind];
  const { state, retry } = useRevalidatedResource(props.stores.lists, key);
  return (
    <>
      <button
        type="button"
        class="primary cr-new"
        data-testid="cr-new"
        title="New change request (Ctrl+Alt+R)"
        onClick={props.onCreate}
      >
        <Icon name="plus" /> New change request
      </button>
      <Tabs
        label="Change request lists"
        class="underline-tabs cr-tabs"
        panelPrefix="cr-lists"
        items={LIST_TABS.map((tab) => ({ ...tab, testid: `cr-tab-${tab.id}` }))}
        active={kind}
        onSelect={setKind}
      />
      <TabPanel prefix="cr-lists" id={kind}>
        <AsyncSection state={state} what="change requests" retry={retry}>
          {(list) =>
            list.length === 0 ? (
              <EmptyState message={NONE[kind]} />
            ) : (
              <ul class="cr-list" data-testid={`cr-list-${kind}`}>
                {list.map((cr) => (
                  <li key={cr.id}>
                    <button
                      type="button"
                      class="cr-item"
                      data-testid="cr-item"
                      onClick={() => props.nav.openChangeRequest(cr.id)}
                    >
                      <span class="cr-item-title">{`#${cr.number} ${cr.subject || 'Untitled'}`}</span>
                      <span class="cr-item-meta">
                        <span class={`badge badge-${cr.status}`}>{STATUS_LABEL[cr.status] ?? cr.status}</span>
                        {cr.createdBy ? ` by ${cr.createdBy.displayName}` : ''}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )
          }
        </AsyncSection>
      </TabPanel>
    </>
  );
}
