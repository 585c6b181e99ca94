import { useEffect, useState } from 'preact/hooks';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { Spec } from '../openapi/openapi-api';
import { useApp } from '../screens/context';
import { AsyncSection } from '../ui/kit/async-section';
import { Field } from '../ui/kit/field';
import { FormDialog, FormError } from '../ui/kit/form-dialog';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { sourceOf, type ApiReferenceSettings } from './api-reference-model';
import { SourceSettings } from './source-settings';
import './computed.css';

/**
 * "API reference from an OpenAPI spec…": a title and the settings of a computed page; Create adds
 * it at the root of the tree (a computed page's pages are generated, so it stands on its own) and
 * opens it. The spec list is re-read on open, so a spec added in another window is offered; an
 * organization without specs is told where to add one.
 */
export function NewApiReferenceDialog(props: {
  orgId: string;
  content: ContentDoc;
  onClose: () => void;
  onCreated: (pageId: string) => void;
}) {
  const { stores } = useApp();
  const { state, retry } = useRevalidatedResource(stores.openapi.list, props.orgId);
  const specs = 'data' in state ? state.data : undefined;
  const [title, setTitle] = useState('API reference');
  const [settings, setSettings] = useState<ApiReferenceSettings>({ spec: '', grouping: 'by-tag', models: true });

  // Once the list is there, a spec is chosen for the writer (the one most likely to be meant).
  useEffect(() => {
    if (settings.spec === '' && specs?.length) setSettings((s) => ({ ...s, spec: defaultSpec(specs) }));
  }, [specs]);

  return (
    <FormDialog
      title="API reference from an OpenAPI spec"
      submitLabel="Create"
      testid="new-api-reference-dialog"
      submitTestid="ar-create"
      disabled={!specs?.length || settings.spec === ''}
      onClose={props.onClose}
      onSubmit={() => {
        const clean = title.replace(/\s+/g, ' ').trim();
        if (!clean) throw new FormError('Give the page a title.');
        props.onCreated(props.content.createPage({ title: clean, kind: 'computed', computed: sourceOf(settings) }));
      }}
    >
      <p class="muted ar-intro">
        Pages generated from one of this organization’s specs, with its operations and schemas. They follow the spec: a
        new version shows without anybody editing the space.
      </p>
      <AsyncSection state={state} what="the OpenAPI specs" retry={retry}>
        {(list) =>
          list.length === 0 ? (
            <NoSpecs orgId={props.orgId} />
          ) : (
            <>
              <Field label="Title">
                <input
                  type="text"
                  value={title}
                  maxLength={200}
                  data-testid="ar-title"
                  onInput={(event) => setTitle(event.currentTarget.value)}
                />
              </Field>
              <SourceSettings value={settings} onChange={setSettings} specs={list} idPrefix="new-ar" />
            </>
          )
        }
      </AsyncSection>
    </FormDialog>
  );
}

/** The organization has no spec: nothing to choose, and where to add one. */
function NoSpecs({ orgId }: { orgId: string }) {
  return (
    <div class="ar-notice" role="status" data-testid="ar-no-specs">
      <Icon name="info" class="ar-notice-icon" />
      <p>
        This organization has no OpenAPI spec yet. Add one on the{' '}
        <Link to={{ view: 'org', orgId, tab: 'openapi' }} data-testid="ar-specs-link">
          OpenAPI specs
        </Link>{' '}
        screen, then come back to generate its pages.
      </p>
    </div>
  );
}

/** The first spec (by slug) that has a version to generate from, else the first one. */
function defaultSpec(specs: readonly Spec[]): string {
  const sorted = [...specs].sort((a, b) => a.slug.localeCompare(b.slug));
  return (sorted.find((s) => s.lastVersion) ?? sorted[0])!.slug;
}
