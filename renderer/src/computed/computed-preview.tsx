import { ApiError, describeError, type ApiClient } from '../api/client';
import type { ComputedSource } from '../../../shared/doc/computed';
import type { Spec } from '../openapi/openapi-api';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { useAsync } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import {
  operationsLabel,
  previewEntries,
  previewProblem,
  previewSummary,
  settingsOf,
  type PreviewEntry,
  type PreviewProblem,
} from './api-reference-model';
import { computeRevision } from './computed-api';

/** Sub-pages listed under a page before "and N more" (a large API has hundreds of operations). */
const MAX_CHILDREN = 8;

/**
 * The pages a computed page generates, asked of the server (getComputedRevision, seeded with the
 * page's id) whenever its source changes, and again when its spec gets a new version (the spec
 * list, polled while the spec processes, says so). A spec that is missing, still processing or
 * failed is said plainly; other failures are the kit's error with Retry.
 */
export function ComputedPreview(props: {
  api: ApiClient;
  spaceId: string;
  pageId: string;
  source: ComputedSource;
  /** The spec the source names, from the organization's list (undefined: unknown or not loaded). */
  spec: Spec | undefined;
  orgId: string | undefined;
}) {
  const { source, spec } = props;
  const { state, retry } = useAsync(
    () => computeRevision(props.api, props.spaceId, source, props.pageId),
    [JSON.stringify(source), props.pageId, props.spaceId, spec?.lastVersion],
  );
  const slug = settingsOf(source).spec;
  const entries = 'data' in state && state.data ? previewEntries(state.data.pages) : undefined;
  const busy = state.status === 'loading';

  let body;
  if (state.status === 'error') {
    const problem = previewProblem(state.error instanceof ApiError ? state.error.status : undefined, slug, spec);
    body = problem ? (
      <PreviewNotice problem={problem} orgId={props.orgId} slug={slug} />
    ) : (
      <ErrorState message={`Could not generate the pages: ${describeError(state.error)}`} retry={retry} />
    );
  } else if (!entries) body = <Loading what="the generated pages" />;
  else if (entries.length === 0)
    body = <p class="state state-empty">The spec has no operations yet, so no pages are generated.</p>;
  else body = <PreviewList entries={entries} />;

  return (
    <section
      class="ar-section ar-preview"
      aria-labelledby="ar-preview-heading"
      aria-busy={busy ? 'true' : 'false'}
      data-testid="ar-preview"
      data-state={state.status}
    >
      <div class="ar-section-head">
        <div class="ar-section-title">
          <h2 id="ar-preview-heading">Generated pages</h2>
          {entries && state.status !== 'error' && (
            <span class="muted ar-summary" data-testid="ar-preview-summary">
              {previewSummary(entries)}
            </span>
          )}
        </div>
        <button
          type="button"
          class="icon-button"
          title="Refresh"
          aria-label="Refresh the generated pages"
          data-testid="ar-preview-refresh"
          disabled={busy}
          onClick={retry}
        >
          <Icon name="refresh" class={busy ? 'ar-spinner' : undefined} />
        </button>
      </div>
      {body}
    </section>
  );
}

function PreviewList({ entries }: { entries: PreviewEntry[] }) {
  return (
    <ol class="ar-pages" data-testid="ar-preview-list">
      {entries.map((entry) => (
        <li key={entry.id} class="ar-page" data-testid="ar-preview-page">
          <div class="ar-page-head">
            <Icon name="file-text" class="ar-page-icon" />
            <span class="ar-page-title" data-testid="ar-preview-title">
              {entry.title}
            </span>
            {entry.operations > 0 && (
              <span class="badge" data-testid="ar-preview-operations">
                {operationsLabel(entry.operations)}
              </span>
            )}
          </div>
          {entry.description && <p class="ar-page-description muted">{entry.description}</p>}
          {entry.children.length > 0 && <SubPages entries={entry.children} />}
        </li>
      ))}
    </ol>
  );
}

function SubPages({ entries }: { entries: PreviewEntry[] }) {
  const more = entries.length - MAX_CHILDREN;
  return (
    <ul class="ar-subpages" aria-label="Pages under it">
      {entries.slice(0, MAX_CHILDREN).map((child) => (
        <li key={child.id} data-testid="ar-preview-subpage">
          {child.title}
        </li>
      ))}
      {more > 0 && <li class="muted">{`and ${more} more`}</li>}
    </ul>
  );
}

/** Why there are no pages to show, and where to do something about it. */
function PreviewNotice(props: { problem: PreviewProblem; orgId: string | undefined; slug: string }) {
  const { problem, orgId } = props;
  const processing = problem.kind === 'processing';
  return (
    <div
      class={`ar-notice ar-notice-${problem.kind}`}
      role={processing ? 'status' : 'alert'}
      data-testid="ar-preview-problem"
      data-kind={problem.kind}
    >
      <Icon
        name={processing ? 'loader' : 'triangle-alert'}
        class={`ar-notice-icon${processing ? ' ar-spinner' : ''}`}
      />
      <p>
        {problem.message}{' '}
        {orgId && problem.kind === 'missing' && (
          <Link to={{ view: 'org', orgId, tab: 'openapi' }} data-testid="ar-specs-link">
            See the OpenAPI specs
          </Link>
        )}
        {orgId && problem.kind === 'failed' && (
          <Link to={{ view: 'openapi-spec', orgId, specSlug: props.slug }} data-testid="ar-spec-link">
            Open the spec
          </Link>
        )}
      </p>
    </div>
  );
}
