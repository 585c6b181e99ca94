import { useState } from 'preact/hooks';
import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useResource } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { AddSpecDialog } from './add-spec-dialog';
import type { Spec } from './openapi-api';
import { formatTime, isProcessing, ProcessingBadge, SpecErrorBlock, VisibilityBadge } from './spec-status';
import { SourceLabel, PublicUrl } from './spec-facts';
import { useProcessingPoll } from './use-processing-poll';
import './openapi.css';

/**
 * The organization's OpenAPI specs: each with its source, processing state (polled while the
 * server works on it), last processing time and error, and visibility with its public URL; "Add
 * spec" for those the organization lets create specs (`permissions.createOpenAPISpec`).
 */
export default function SpecsScreen({ route }: { route: Route }) {
  const { orgId } = route as Route & { view: 'org' };
  const { stores, nav } = useApp();
  const orgState = useResource(stores.org, orgId).state;
  const org = 'data' in orgState ? orgState.data : undefined;
  // The renderer's OrgDetails predates the field; the server sends it with the organization.
  const canCreate = org?.permissions.createOpenAPISpec ?? false;
  const { state, retry } = useRevalidatedResource(stores.openapi.list, orgId);
  const [adding, setAdding] = useState(false);
  const specs = 'data' in state ? state.data : undefined;
  useProcessingPoll(specs?.some(isProcessing) ?? false, () => stores.openapi.refreshList(orgId));

  return (
    <div class="specs-screen" data-testid="specs-screen">
      <div class="org-panel-header specs-header">
        <h1 class="org-heading" data-testid="specs-title">
          OpenAPI specs
        </h1>
        {canCreate && (
          <button type="button" class="primary" data-testid="add-spec" onClick={() => setAdding(true)}>
            <Icon name="plus" />
            Add spec
          </button>
        )}
      </div>
      <p class="muted">
        API descriptions that pages of this organization's spaces show as API reference. Each new source makes a version
        when its content changed.
      </p>
      <section class="org-panel" aria-label="OpenAPI specs" data-testid="spec-list-panel">
        <AsyncSection state={state} what="the OpenAPI specs" retry={retry}>
          {(list) =>
            list.length === 0 ? (
              <EmptyState
                message={canCreate ? 'No OpenAPI specs yet. Add one from a URL or a file.' : 'No OpenAPI specs yet.'}
                action={
                  canCreate ? { label: 'Add spec', run: () => setAdding(true), testid: 'empty-add-spec' } : undefined
                }
              />
            ) : (
              <ul class="org-list spec-list" data-testid="spec-list">
                {[...list]
                  .sort((a, b) => a.slug.localeCompare(b.slug))
                  .map((spec) => (
                    <SpecRow key={spec.id} orgId={orgId} spec={spec} />
                  ))}
              </ul>
            )
          }
        </AsyncSection>
      </section>
      {adding && (
        <AddSpecDialog
          orgId={orgId}
          onClose={() => setAdding(false)}
          onAdded={(spec) => {
            setAdding(false);
            nav.go({ view: 'openapi-spec', orgId, specSlug: spec.slug });
          }}
        />
      )}
    </div>
  );
}

function SpecRow({ orgId, spec }: { orgId: string; spec: Spec }) {
  return (
    <li class="spec-row" data-testid="spec-row" data-slug={spec.slug}>
      <div class="spec-row-main">
        <Link to={{ view: 'openapi-spec', orgId, specSlug: spec.slug }} class="org-item-link" data-testid="spec-link">
          <Icon name="code" />
          {spec.slug}
        </Link>
        <span class="spec-row-facts">
          <ProcessingBadge spec={spec} />
          <VisibilityBadge spec={spec} />
        </span>
      </div>
      <p class="spec-row-meta muted">
        <SourceLabel spec={spec} />
        <span data-testid="spec-processed-at">
          {spec.lastProcessedAt ? `Processed ${formatTime(spec.lastProcessedAt)}` : 'Not processed yet'}
        </span>
      </p>
      <SpecErrorBlock spec={spec} compact />
      {spec.urls.published && <PublicUrl url={spec.urls.published} />}
    </li>
  );
}
