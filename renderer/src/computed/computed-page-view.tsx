import type { ComponentChildren } from 'preact';
import type { ApiClient } from '../api/client';
import type { ComputedSource } from '../../../shared/doc/computed';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { Spec } from '../openapi/openapi-api';
import { isProcessing } from '../openapi/spec-status';
import { useProcessingPoll } from '../openapi/use-processing-poll';
import { useApp } from '../screens/context';
import { attempt } from '../tree/tree-actions';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { groupingLabel, settingsOf, sourceOf, type ApiReferenceSettings } from './api-reference-model';
import { ComputedPreview } from './computed-preview';
import { SourceSettings } from './source-settings';
import { useMayWrite } from './use-may-write';
import './computed.css';

/** What the view needs from the workspace. */
export interface ComputedPageViewProps {
  content: ContentDoc;
  pageId: string;
  source: ComputedSource;
  /** Whether the content accepts edits (the socket's answer; the space's permissions are asked too). */
  editable: boolean;
  /** The page header (title, breadcrumbs, actions), as for any page. */
  header: ComponentChildren;
  api: ApiClient;
  spaceId: string;
  /** The space's organization (undefined while unknown: the settings are shown, not edited). */
  orgId: string | undefined;
}

/**
 * A computed page, in place of the editor: it has no text of its own. Under its header, what it
 * is, its settings (edited in place by writers, each change written to the content document at
 * once, so it syncs and works offline like any edit) and the pages it generates.
 */
export function ComputedPageView(props: ComputedPageViewProps) {
  return props.orgId ? (
    <WithSpecs orgId={props.orgId}>{(specs) => <Body {...props} specs={specs} />}</WithSpecs>
  ) : (
    <Body {...props} specs={undefined} />
  );
}

/**
 * The organization's specs (re-read on open: someone may have added or reprocessed one), polled
 * while the page's spec is processing, so the preview follows when its version arrives.
 */
function WithSpecs(props: { orgId: string; children: (specs: Spec[] | undefined) => ComponentChildren }) {
  const { stores } = useApp();
  const { state } = useRevalidatedResource(stores.openapi.list, props.orgId);
  const specs = 'data' in state ? state.data : undefined;
  useProcessingPoll(specs?.some(isProcessing) ?? false, () => stores.openapi.refreshList(props.orgId));
  return <>{props.children(specs)}</>;
}

function Body(props: ComputedPageViewProps & { specs: Spec[] | undefined }) {
  const { source, orgId, specs } = props;
  const mayWrite = useMayWrite(props.spaceId, props.editable);
  const settings = settingsOf(source);
  const spec = specs?.find((s) => s.slug === settings.spec);
  const write = (next: ApiReferenceSettings) =>
    attempt(() => props.content.updatePage(props.pageId, { computed: sourceOf(next, source) }));
  return (
    <main class="page-view computed-page-view" data-testid="computed-page-view">
      <header class="page-header">{props.header}</header>
      <div class="ar-body">
        <div class="ar-column">
          <p class="ar-explanation" data-testid="ar-explanation">
            <Icon name="code" class="ar-explanation-icon" />
            <span>
              Generated from the OpenAPI spec “
              {orgId && spec ? (
                <Link to={{ view: 'openapi-spec', orgId, specSlug: settings.spec }} data-testid="ar-spec-name">
                  {settings.spec}
                </Link>
              ) : (
                <span data-testid="ar-spec-name">{settings.spec}</span>
              )}
              ”. Its pages are made from the spec’s latest version when the space is read or published; they update by
              themselves when the spec changes.
            </span>
          </p>
          <section class="ar-section" aria-labelledby="ar-settings-heading" data-testid="ar-settings">
            <div class="ar-section-head">
              <h2 id="ar-settings-heading">Settings</h2>
            </div>
            {mayWrite && specs ? (
              <SourceSettings value={settings} onChange={write} specs={specs} idPrefix="ar-page" />
            ) : (
              <SettingsSummary settings={settings} />
            )}
          </section>
          <ComputedPreview
            api={props.api}
            spaceId={props.spaceId}
            pageId={props.pageId}
            source={source}
            spec={spec}
            orgId={orgId}
          />
        </div>
      </div>
    </main>
  );
}

/** The settings as text (readers; writers until the spec list is there). */
function SettingsSummary({ settings }: { settings: ApiReferenceSettings }) {
  return (
    <dl class="ar-facts" data-testid="ar-settings-summary">
      <dt>OpenAPI spec</dt>
      <dd>{settings.spec}</dd>
      <dt>Pages</dt>
      <dd>{groupingLabel(settings.grouping)}</dd>
      <dt>Models</dt>
      <dd>{settings.models ? 'A “Models” page is included' : 'Not included'}</dd>
    </dl>
  );
}
