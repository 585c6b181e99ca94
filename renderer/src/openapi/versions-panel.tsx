import { useState } from 'preact/hooks';
import { useApp } from '../screens/context';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { Icon } from '../ui/kit/icon';
import type { Spec, SpecVersion } from './openapi-api';
import { formatTime, isProcessing } from './spec-status';
import { ContentDialog } from './content-dialog';

/** A spec's versions, newest first (the server's order), the newest marked "latest", each viewable. */
export function VersionsPanel({ orgId, spec }: { orgId: string; spec: Spec }) {
  const { stores } = useApp();
  const { state, retry } = useRevalidatedResource(stores.openapi.versions, [orgId, spec.slug] as [string, string]);
  const [viewing, setViewing] = useState<SpecVersion>();
  return (
    <section class="org-panel" aria-labelledby="spec-versions-heading" data-testid="spec-versions-panel">
      <div class="org-panel-header">
        <h2 id="spec-versions-heading">Versions</h2>
      </div>
      <AsyncSection state={state} what="the versions" retry={retry}>
        {(versions) =>
          versions.length === 0 ? (
            <EmptyState
              message={
                isProcessing(spec)
                  ? 'No version yet: the first one appears when processing succeeds.'
                  : 'No version yet. A version is made when a source is processed without errors.'
              }
            />
          ) : (
            <ol class="org-list spec-versions" data-testid="spec-versions">
              {versions.map((version, index) => (
                <li key={version.id} class="spec-version" data-testid="spec-version" data-version-id={version.id}>
                  <Icon name="history" />
                  <span class="spec-version-time">{formatTime(version.createdAt)}</span>
                  {index === 0 && (
                    <span class="badge badge-active" data-testid="spec-version-latest">
                      Latest
                    </span>
                  )}
                  <span class="spacer" />
                  <button
                    type="button"
                    data-testid="spec-version-view"
                    aria-label={`View the version of ${formatTime(version.createdAt)}`}
                    onClick={() => setViewing(version)}
                  >
                    <Icon name="eye" />
                    View
                  </button>
                </li>
              ))}
            </ol>
          )
        }
      </AsyncSection>
      {viewing && (
        <ContentDialog orgId={orgId} slug={spec.slug} version={viewing} onClose={() => setViewing(undefined)} />
      )}
    </section>
  );
}
