import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { confirmDialog } from '../ui/kit/dialog';
import { FormError } from '../ui/kit/form-dialog';
import { Icon } from '../ui/kit/icon';
import type { Spec } from './openapi-api';
import { PublicUrl } from './spec-facts';
import { isProcessing } from './spec-status';
import { emptySource, sourceOf, SourceFields, type SourceDraft } from './source-fields';

/**
 * What may be done with a spec: its public URL for everyone who sees it; for those the server lets
 * edit it (`permissions.edit`), a new source, public/private and deletion. Each write's refusal
 * shows the API's message next to its button.
 */
export function ManagePanel({ orgId, spec }: { orgId: string; spec: Spec }) {
  return (
    <>
      <VisibilityPanel orgId={orgId} spec={spec} />
      {spec.permissions.edit && <UpdateSourcePanel orgId={orgId} spec={spec} />}
      {spec.permissions.edit && <DeletePanel orgId={orgId} spec={spec} />}
    </>
  );
}

/** Runs a write, busy while it runs, with its error kept for the panel to show. */
function useWrite() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (write: () => Promise<unknown>) => {
    if (busy) return false;
    setBusy(true);
    setError('');
    try {
      await write();
      return true;
    } catch (err) {
      setError(describeError(err));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

function VisibilityPanel({ orgId, spec }: { orgId: string; spec: Spec }) {
  const { stores } = useApp();
  const write = useWrite();
  const isPublic = spec.visibility === 'public';
  return (
    <section class="org-panel" aria-labelledby="spec-visibility-heading" data-testid="spec-visibility-panel">
      <div class="org-panel-header">
        <h2 id="spec-visibility-heading">Visibility</h2>
      </div>
      <p class="muted">
        {isPublic
          ? 'Public: anyone with the URL can read the newest version, without signing in.'
          : 'Private: only members of the organization can read it.'}
      </p>
      {spec.urls.published && <PublicUrl url={spec.urls.published} />}
      {isPublic && !spec.lastVersion && <p class="muted">The URL answers once a version exists.</p>}
      {spec.permissions.edit && (
        <div class="spec-actions">
          <button
            type="button"
            data-testid={isPublic ? 'spec-make-private' : 'spec-make-public'}
            disabled={write.busy}
            aria-busy={write.busy}
            onClick={() =>
              void write.run(() => stores.openapi.setVisibility(orgId, spec.slug, isPublic ? 'private' : 'public'))
            }
          >
            <Icon name={isPublic ? 'lock' : 'globe'} />
            {isPublic ? 'Make private' : 'Make public'}
          </button>
          <p class="form-message" role="alert" data-testid="spec-visibility-error">
            {write.error}
          </p>
        </div>
      )}
    </section>
  );
}

function UpdateSourcePanel({ orgId, spec }: { orgId: string; spec: Spec }) {
  const { stores } = useApp();
  const write = useWrite();
  const [draft, setDraft] = useState<SourceDraft>(() =>
    spec.sourceURL ? { kind: 'url', url: spec.sourceURL } : emptySource(),
  );
  const [done, setDone] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setDone('');
    let source;
    try {
      source = sourceOf(draft);
    } catch (err) {
      if (err instanceof FormError) return write.setError(err.message);
      throw err;
    }
    if (await write.run(() => stores.openapi.updateSource(orgId, spec.slug, source)))
      setDone('Sent: the server is processing the new source.');
  };
  return (
    <section class="org-panel" aria-labelledby="spec-update-heading" data-testid="spec-update-panel">
      <div class="org-panel-header">
        <h2 id="spec-update-heading">Update the source</h2>
      </div>
      <p class="muted">
        Processing it makes a new version when the content changed; if it fails, the current version stays.
      </p>
      <form onSubmit={(event) => void submit(event)} onInput={() => write.error && write.setError('')}>
        <SourceFields value={draft} onChange={setDraft} idPrefix="update-spec" />
        <div class="spec-actions">
          <button
            type="submit"
            class="primary"
            data-testid="spec-update-submit"
            disabled={write.busy}
            aria-busy={write.busy}
          >
            <Icon name="refresh" />
            Update
          </button>
          {/* Said while the new source is processed; the state badge takes over once it is done. */}
          <span class="muted" role="status" data-testid="spec-update-done">
            {isProcessing(spec) ? done : ''}
          </span>
        </div>
        <p class="form-message" role="alert" data-testid="spec-update-error">
          {write.error}
        </p>
      </form>
    </section>
  );
}

function DeletePanel({ orgId, spec }: { orgId: string; spec: Spec }) {
  const { stores, nav } = useApp();
  const write = useWrite();
  return (
    <section class="org-panel spec-danger" aria-labelledby="spec-delete-heading" data-testid="spec-delete-panel">
      <div class="org-panel-header">
        <h2 id="spec-delete-heading">Delete</h2>
      </div>
      <p class="muted">Deletes the spec and all its versions. API blocks of pages that show it stop working.</p>
      <div class="spec-actions">
        <button
          type="button"
          class="danger"
          data-testid="spec-delete"
          disabled={write.busy}
          onClick={async () => {
            if (!(await confirmDialog(`Delete the OpenAPI spec “${spec.slug}” and all its versions?`))) return;
            if (!(await write.run(() => stores.openapi.remove(orgId, spec.slug)))) return;
            nav.go({ view: 'org', orgId, tab: 'openapi' });
            // After this screen has unmounted (the next render), so nothing fetches the deleted spec.
            setTimeout(() => stores.openapi.forget(orgId, spec.slug), 0);
          }}
        >
          <Icon name="trash" />
          Delete spec
        </button>
        <p class="form-message" role="alert" data-testid="spec-delete-error">
          {write.error}
        </p>
      </div>
    </section>
  );
}
