import { useState } from 'preact/hooks';
import { Field } from '../ui/kit/field';
import { FormError } from '../ui/kit/form-dialog';
import type { SpecSource } from './openapi-api';

/**
 * Where a spec comes from, in the add and update dialogs: a URL the server fetches (and fetches
 * again on each update), or a .json/.yaml/.yml file read here and sent as its text.
 */

export type SourceDraft = { kind: 'url'; url: string } | { kind: 'file'; name?: string; text?: string; error?: string };

export const emptySource = (): SourceDraft => ({ kind: 'url', url: '' });

/** The server's limit for a spec given as text (MAX_SPEC_TEXT: 8 MiB of characters). */
const MAX_TEXT = 8 * 1024 * 1024;
const EXTENSIONS = /\.(json|ya?ml)$/i;

/** The source to send, or a FormError saying what is missing (shown in the dialog). */
export function sourceOf(draft: SourceDraft): SpecSource {
  if (draft.kind === 'url') {
    const url = draft.url.trim();
    if (!url) throw new FormError('Enter the URL of the specification.');
    if (!/^https?:\/\/[^\s]+$/i.test(url)) throw new FormError('Enter an http:// or https:// URL.');
    return { url };
  }
  if (draft.error) throw new FormError(draft.error);
  if (draft.text === undefined) throw new FormError('Choose a .json, .yaml or .yml file.');
  return { text: draft.text };
}

/** Reads a chosen file: its text, or why it cannot be sent. */
async function readSpecFile(file: File): Promise<SourceDraft> {
  if (!EXTENSIONS.test(file.name))
    return { kind: 'file', name: file.name, error: `${file.name} is not a .json, .yaml or .yml file.` };
  // Bytes bound characters from above: a file within the limit in bytes is within it in characters.
  if (file.size > MAX_TEXT * 4)
    return { kind: 'file', name: file.name, error: `${file.name} is larger than the 8 MiB a specification may be.` };
  const text = await file.text();
  if (text.length > MAX_TEXT)
    return { kind: 'file', name: file.name, error: `${file.name} is larger than the 8 MiB a specification may be.` };
  if (!text.trim()) return { kind: 'file', name: file.name, error: `${file.name} is empty.` };
  return { kind: 'file', name: file.name, text };
}

export function SourceFields(props: { value: SourceDraft; onChange: (draft: SourceDraft) => void; idPrefix: string }) {
  const { value, onChange } = props;
  const [reading, setReading] = useState(false);
  const name = `${props.idPrefix}-source-kind`;
  return (
    <fieldset class="spec-source">
      <legend>Source</legend>
      <div class="spec-source-kinds">
        <label class="toggle">
          <input
            type="radio"
            name={name}
            checked={value.kind === 'url'}
            data-testid="spec-source-url-kind"
            onChange={() => onChange({ kind: 'url', url: '' })}
          />
          From a URL
        </label>
        <label class="toggle">
          <input
            type="radio"
            name={name}
            checked={value.kind === 'file'}
            data-testid="spec-source-file-kind"
            onChange={() => onChange({ kind: 'file' })}
          />
          Upload a file
        </label>
      </div>
      {value.kind === 'url' ? (
        <Field label="URL" hint="Fetched by the server now and on every update; external $refs are fetched too.">
          <input
            type="url"
            inputMode="url"
            placeholder="https://example.com/openapi.yaml"
            value={value.url}
            data-testid="spec-source-url"
            onInput={(event) => onChange({ kind: 'url', url: event.currentTarget.value })}
          />
        </Field>
      ) : (
        <Field
          label="File"
          hint={
            reading
              ? 'Reading…'
              : value.name && !value.error
                ? `${value.name} is ready to send.`
                : 'JSON or YAML, up to 8 MiB.'
          }
          error={value.error}
        >
          <input
            type="file"
            accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml"
            data-testid="spec-source-file"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (!file) return onChange({ kind: 'file' });
              setReading(true);
              void readSpecFile(file)
                .then(onChange, () =>
                  onChange({ kind: 'file', name: file.name, error: `${file.name} could not be read.` }),
                )
                .finally(() => setReading(false));
            }}
          />
        </Field>
      )}
    </fieldset>
  );
}
