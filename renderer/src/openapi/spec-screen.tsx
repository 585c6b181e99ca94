import type { Route } from '../routes';
import { useApp } from '../screens/context';
import { AsyncSection } from '../ui/kit/async-section';
import { useWindowTitle } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import type { Spec } from './openapi-api';
import { formatTime, isProcessing, ProcessingBadge, SpecErrorBlock, VisibilityBadge } from './spec-status';
import { SourceLabel } from './spec-facts';
import { ManagePanel } from './manage-panel';
import { VersionsPanel } from './versions-panel';
import { useProcessingPoll } from './use-processing-poll';
import './openapi.css';

/**
 * One OpenAPI spec (`urls.app` of a spec): its state and last error, its versions (each viewable),
 * and, for those who may edit it (`permissions.edit`, the server's word), a new source, its
 * visibility and deletion. Polls while the server processes it.
 */
export default function SpecScreen({ route }: { route: Route }) {
  const { orgId, specSlug } = route as Route & { view: 'openapi-spec' };
  const { stores } = useApp();
  const key: [string, string] = [orgId, specSlug];
  const { state, retry } = useRevalidatedResource(stores.openapi.spec, key);
  const spec = 'data' in state ? state.data : undefined;
  const org = stores.org.peek(orgId);
  useWindowTitle([specSlug, 'OpenAPI specs', org?.title].filter(Boolean).join(' · '));
  useProcessingPoll(spec ? isProcessing(spec) : false, () => stores.openapi.refreshSpec(orgId, specSlug));
  return (
    <div class="spec-screen" data-testid="spec-screen">
      <p class="org-crumbs">
        <Link to={{ view: 'org', orgId, tab: 'openapi' }} data-testid="crumb-specs">
          OpenAPI specs
        </Link>{' '}
        /
      </p>
      <AsyncSection state={state} what="the OpenAPI spec" retry={retry}>
        {(loaded) => <SpecBody orgId={orgId} spec={loaded} />}
      </AsyncSection>
    </div>
  );
}

function SpecBody({ orgId, spec }: { orgId: string; spec: Spec }) {
  return (
    <>
      <div class="spec-heading-row">
        <h1 class="org-heading" data-testid="spec-title">
          <Icon name="code" size={22} />
          {spec.slug}
        </h1>
        <ProcessingBadge spec={spec} />
        <VisibilityBadge spec={spec} />
      </div>
      <section class="org-panel spec-summary" aria-label="Processing" data-testid="spec-summary">
        <dl class="spec-facts">
          <dt>Source</dt>
          <dd>
            <SourceLabel spec={spec} />
          </dd>
          <dt>Last processed</dt>
          <dd data-testid="spec-processed-at">
            {spec.lastProcessedAt ? formatTime(spec.lastProcessedAt) : 'Not processed yet'}
          </dd>
          <dt>Added</dt>
          <dd>{formatTime(spec.createdAt)}</dd>
        </dl>
        {isProcessing(spec) && (
          <p class="muted" role="status" data-testid="spec-processing-note">
            {spec.processingState === 'pending'
              ? 'Waiting for the server to process the newest source…'
              : 'The server is fetching and checking the newest source…'}
          </p>
        )}
        <SpecErrorBlock spec={spec} />
      </section>
      <VersionsPanel orgId={orgId} spec={spec} />
      <ManagePanel orgId={orgId} spec={spec} />
    </>
  );
}
