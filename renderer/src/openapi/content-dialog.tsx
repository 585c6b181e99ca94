import { useState } from 'preact/hooks';
import { useApp } from '../screens/context';
import { AsyncSection } from '../ui/kit/async-section';
import { Dialog, DialogActions } from '../ui/kit/dialog';
import { useAsync } from '../ui/kit/hooks';
import { getVersionContent, type SpecContent, type SpecVersion } from './openapi-api';
import { formatTime } from './spec-status';

/** What is drawn of one file: a spec of megabytes would stall the page as one text node. */
const MAX_SHOWN = 200_000;

/**
 * A version's content: the files of its filesystem (the entry document first, then the external
 * files it references), each as formatted JSON. Read through the API with the app's credentials,
 * which a plain link to the API could not carry.
 */
export function ContentDialog(props: { orgId: string; slug: string; version: SpecVersion; onClose: () => void }) {
  const { stores } = useApp();
  const { state, retry } = useAsync(
    () => getVersionContent(stores.api, props.orgId, props.slug, props.version.id),
    [props.orgId, props.slug, props.version.id],
  );
  return (
    <Dialog
      title={`${props.slug} — version of ${formatTime(props.version.createdAt)}`}
      onClose={props.onClose}
      testid="spec-content-dialog"
      class="spec-content-dialog"
    >
      <AsyncSection state={state} what="the content" retry={retry}>
        {(content) => <Files content={content} />}
      </AsyncSection>
      <DialogActions>
        <button type="button" class="primary" onClick={props.onClose} data-testid="spec-content-close">
          Close
        </button>
      </DialogActions>
    </Dialog>
  );
}

function Files({ content }: { content: SpecContent }) {
  const files = Object.values(content.filesystem).sort(
    (a, b) => Number(b.isEntrypoint) - Number(a.isEntrypoint) || a.filename.localeCompare(b.filename),
  );
  const [open, setOpen] = useState(files[0]?.filename);
  const file = files.find((f) => f.filename === open) ?? files[0];
  if (!file) return <p class="muted">This version has no files.</p>;
  const text = JSON.stringify(file.specification, null, 2);
  return (
    <div class="spec-content">
      {files.length > 1 && (
        <label>
          <span>File</span>
          <select
            value={file.filename}
            onChange={(e) => setOpen(e.currentTarget.value)}
            data-testid="spec-content-file"
          >
            {files.map((f) => (
              <option key={f.filename} value={f.filename}>
                {f.filename}
                {f.isEntrypoint ? ' (entry)' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <pre
        class="spec-content-text"
        data-testid="spec-content-text"
        tabIndex={0}
        aria-label={`Content of ${file.filename}`}
      >
        {text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n…` : text}
      </pre>
      {text.length > MAX_SHOWN && (
        <p class="muted">Only the first {MAX_SHOWN.toLocaleString()} characters are shown.</p>
      )}
    </div>
  );
}
