import { useState } from 'preact/hooks';
import { useApp } from '../screens/context';
import { Field } from '../ui/kit/field';
import { FormDialog, FormError } from '../ui/kit/form-dialog';
import { slugProblem, suggestSlug, MAX_SLUG } from './slug';
import { emptySource, sourceOf, SourceFields, type SourceDraft } from './source-fields';
import type { Spec } from './openapi-api';

/**
 * "Add spec": a slug (checked as the server checks it, suggested from the URL or file name until
 * the person types one) and a source. The server's refusal (a taken slug, a refused URL) shows in
 * the dialog, which stays open.
 */
export function AddSpecDialog(props: { orgId: string; onClose: () => void; onAdded: (spec: Spec) => void }) {
  const { stores } = useApp();
  const [slug, setSlug] = useState('');
  const [slugTouched, setSlugTouched] = useState(false);
  const [source, setSource] = useState<SourceDraft>(emptySource);
  const [showSlugError, setShowSlugError] = useState(false);
  const problem = slugProblem(slug);

  const changeSource = (draft: SourceDraft) => {
    setSource(draft);
    if (slugTouched) return;
    const from = draft.kind === 'url' ? draft.url : (draft.name ?? '');
    setSlug(suggestSlug(from));
  };

  return (
    <FormDialog
      title="Add an OpenAPI spec"
      submitLabel="Add spec"
      testid="add-spec-dialog"
      submitTestid="add-spec-submit"
      onClose={props.onClose}
      onSubmit={async () => {
        setShowSlugError(true);
        if (problem) throw new FormError('Correct the slug first.');
        const spec = await stores.openapi.create(props.orgId, slug, sourceOf(source));
        props.onAdded(spec);
      }}
    >
      <SourceFields value={source} onChange={changeSource} idPrefix="add-spec" />
      <Field
        label="Slug"
        hint="Names the spec in its URLs and in API blocks of pages."
        error={showSlugError ? problem : undefined}
      >
        <input
          type="text"
          value={slug}
          maxLength={MAX_SLUG}
          spellcheck={false}
          autoComplete="off"
          data-testid="spec-slug"
          aria-invalid={showSlugError && problem ? 'true' : undefined}
          onInput={(event) => {
            setSlug(event.currentTarget.value);
            setSlugTouched(true);
          }}
          onBlur={() => setShowSlugError(true)}
        />
      </Field>
    </FormDialog>
  );
}
