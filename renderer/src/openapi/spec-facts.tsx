import { CopyField } from '../ui/kit/copy-field';
import type { Spec } from './openapi-api';

/** Where a spec comes from: its URL (as a link), or "Uploaded" for one given as text. */
export function SourceLabel({ spec }: { spec: Spec }) {
  if (!spec.sourceURL)
    return (
      <span class="spec-source-label" data-testid="spec-source">
        Uploaded
      </span>
    );
  return (
    <a
      class="spec-source-label"
      href={spec.sourceURL}
      target="_blank"
      rel="noopener noreferrer"
      data-testid="spec-source"
      title={spec.sourceURL}
    >
      {spec.sourceURL}
    </a>
  );
}

/** A public spec's URL (served without a token), to copy. */
export function PublicUrl({ url }: { url: string }) {
  return (
    <div class="spec-public-url">
      <span class="muted">Public URL</span>
      <CopyField value={url} label="Public URL of the specification" testid="spec-public-url" />
    </div>
  );
}
