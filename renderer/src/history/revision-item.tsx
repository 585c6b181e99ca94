import type { ContentDoc } from '../../../shared/doc/content-doc';
import { changeLabel } from '../diff/compute';
import { Icon } from '../ui/kit/icon';
import type { RevisionSummary } from './history-api';
import { fullTime, relativeTime, revisionTypeLabel } from './time';

export type RevisionPage = RevisionSummary['pages'][number];

/** One revision of the history: who, when, what kind, and the pages it changed (each comparable). */
export function RevisionItem(props: {
  revision: RevisionSummary;
  /** Only this page's row (the "This page" scope). */
  onlyPage: string | undefined;
  content: ContentDoc;
  compare: (page: RevisionPage) => void;
}) {
  const { revision: rev, onlyPage } = props;
  const pages = onlyPage ? rev.pages.filter((p) => p.id === onlyPage) : rev.pages;
  return (
    <li class="history-item" data-testid="history-item" data-revision={rev.id}>
      <div class="history-meta">
        <span class="history-who">{rev.author?.displayName ?? 'Live edits'}</span>
        <time dateTime={rev.createdAt} title={fullTime(rev.createdAt)}>
          {relativeTime(rev.createdAt)}
        </time>
      </div>
      {/* Plain edits say so with each page's badge; merges and updates say where they came from. */}
      {rev.type !== 'edits' && <div class="history-what">{revisionTypeLabel(rev.type)}</div>}
      {pages.length ? (
        <ul class="history-pages">
          {pages.map((page) => (
            <li key={page.id} class="history-page" data-testid="history-page" data-page={page.id}>
              <span class="history-page-title">{page.title}</span>
              <span class={`badge cr-kind-${page.change}`}>{changeLabel(page.change)}</span>
              {page.change !== 'page_deleted' && props.content.hasPage(page.id) && (
                <button
                  type="button"
                  class="history-compare"
                  data-testid="history-compare"
                  aria-label={`Compare ${page.title} at this version with the current text`}
                  title="Compare with current"
                  onClick={() => props.compare(page)}
                >
                  <Icon name="git-compare" /> Compare
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p class="history-what">No page content changed (order, files or settings).</p>
      )}
    </li>
  );
}
