import { useEffect, useState } from 'preact/hooks';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { AsyncSection, EmptyState, ErrorState } from '../ui/kit/async-section';
import { describeError } from '../api/client';
import { Icon } from '../ui/kit/icon';
import { TabPanel, Tabs } from '../ui/kit/tabs';
import { usePaged } from '../ui/kit/use-paged';
import { CompareDialog } from './compare-dialog';
import type { HistoryApi, RevisionSummary } from './history-api';
import { RevisionItem, type RevisionPage } from './revision-item';
import '../ui/kit/underline-tabs.css';
import './history.css';

type Scope = 'page' | 'space';

/** Time for the server to cut the revision of a restore (its quiet period is 2 s by default). */
const RELOAD_AFTER_RESTORE_MS = 4000;

export interface RevisionHistoryProps {
  history: HistoryApi;
  content: ContentDoc;
  canEdit: () => boolean;
  /** The open page (the "This page" scope lists its revisions). */
  pageId: string | undefined;
}

/** The panel's attributes, shared with the element the legacy HistoryPanel mounts into. */
export const HISTORY_SECTION = { class: 'history-panel', 'aria-label': 'History', 'data-testid': 'history-panel' };

/**
 * The History panel: the space's revisions (or the open page's), newest first — who, when, which
 * pages — each page with "Compare with current" and "Restore this version". Closed at first: it
 * loads when opened.
 */
export function RevisionHistory(props: RevisionHistoryProps) {
  return (
    <section {...HISTORY_SECTION}>
      <RevisionHistoryContent {...props} />
    </section>
  );
}

/** The panel's content, without its section. */
export function RevisionHistoryContent(props: RevisionHistoryProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <header class="panel-header">
        <h2>
          <button
            type="button"
            class="history-toggle"
            aria-expanded={open}
            data-testid="history-toggle"
            onClick={() => setOpen(!open)}
          >
            <Icon name="history" />
            <span>History</span>
            <Icon name="chevron-down" class="history-chevron" />
          </button>
        </h2>
      </header>
      {open && (
        <div class="history-body">
          <Revisions {...props} />
        </div>
      )}
    </>
  );
}

function Revisions(props: RevisionHistoryProps) {
  const [scope, setScope] = useState<Scope>('page');
  const [comparing, setComparing] = useState<{ revision: RevisionSummary; page: RevisionPage }>();
  const [restores, setRestores] = useState(0);
  const pageId = scope === 'page' ? props.pageId : undefined;
  const noPage = scope === 'page' && !props.pageId;
  const list = usePaged(
    (cursor) => (noPage ? Promise.resolve({ items: [] }) : props.history.list({ pageId, cursor })),
    [props.history.spaceId, scope, pageId],
  );
  // A restore becomes a revision once editing pauses (a few seconds): show it then.
  useEffect(() => {
    if (!restores) return;
    const timer = setTimeout(list.reload, RELOAD_AFTER_RESTORE_MS);
    return () => clearTimeout(timer);
  }, [restores]);

  return (
    <>
      <div class="history-tabs-row">
        <Tabs
          label="History of"
          class="underline-tabs history-tabs"
          panelPrefix="history"
          items={[
            { id: 'page', label: 'This page', testid: 'history-scope-page' },
            { id: 'space', label: 'Whole space', testid: 'history-scope-space' },
          ]}
          active={scope}
          onSelect={setScope}
        />
        <button
          type="button"
          class="icon-button history-refresh"
          title="Reload the history"
          aria-label="Reload the history"
          data-testid="history-refresh"
          onClick={list.reload}
        >
          <Icon name="refresh" size={14} />
        </button>
      </div>
      <TabPanel prefix="history" id={scope}>
        {noPage ? (
          <EmptyState message="Open a page to see its history." />
        ) : (
          <AsyncSection state={list.state} what="history" retry={list.reload}>
            {(revisions) =>
              revisions.length === 0 ? (
                <EmptyState message={pageId ? 'No saved versions of this page yet.' : 'No saved versions yet.'} />
              ) : (
                <>
                  <ol class="history-list" data-testid="history-list">
                    {revisions.map((revision) => (
                      <RevisionItem
                        key={revision.id}
                        revision={revision}
                        onlyPage={pageId}
                        content={props.content}
                        compare={(page) => setComparing({ revision, page })}
                      />
                    ))}
                  </ol>
                  {list.more.status === 'error' && (
                    <ErrorState
                      message={`Could not load older versions: ${describeError(list.more.error)}`}
                      retry={list.loadMore}
                    />
                  )}
                  {list.hasMore && list.more.status !== 'error' && (
                    <button
                      type="button"
                      class="history-more"
                      data-testid="history-more"
                      disabled={list.more.status === 'loading'}
                      onClick={list.loadMore}
                    >
                      {list.more.status === 'loading' ? 'Loading…' : 'Show older versions'}
                    </button>
                  )}
                </>
              )
            }
          </AsyncSection>
        )}
      </TabPanel>
      {comparing && (
        <CompareDialog
          {...props}
          revision={comparing.revision}
          page={comparing.page}
          onRestored={() => setRestores((n) => n + 1)}
          onClose={() => setComparing(undefined)}
        />
      )}
    </>
  );
}
