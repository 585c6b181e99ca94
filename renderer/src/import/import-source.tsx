import { useState } from 'preact/hooks';
import { IMPORT_FILE_ACCEPT } from './import-api';

/** What the form holds: both sources' fields are kept, so switching back loses nothing typed. */
export interface SourceChoice {
  kind: 'website' | 'files';
  url: string;
  files: File[];
}

/** The two sources: a website's address, or files chosen with the input or dropped on the zone. */
export function SourceFields(props: { choice: SourceChoice; onChange: (choice: SourceChoice) => void }) {
  const { choice, onChange } = props;
  const [over, setOver] = useState(false);
  const set = (patch: Partial<SourceChoice>) => onChange({ ...choice, ...patch });
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = Array.from(event.dataTransfer?.files ?? []);
    if (files.length) set({ kind: 'files', files });
  };
  return (
    <div class="import-source">
      <fieldset class="import-kind">
        <legend>Source</legend>
        <label class="toggle">
          <input
            type="radio"
            name="import-kind"
            value="website"
            data-testid="import-kind-website"
            checked={choice.kind === 'website'}
            onChange={() => set({ kind: 'website' })}
          />
          A website
        </label>
        <label class="toggle">
          <input
            type="radio"
            name="import-kind"
            value="files"
            data-testid="import-kind-files"
            checked={choice.kind === 'files'}
            onChange={() => set({ kind: 'files' })}
          />
          Files
        </label>
      </fieldset>
      {choice.kind === 'website' ? (
        <label class="import-field">
          Address of the website
          <input
            type="url"
            inputMode="url"
            placeholder="https://docs.example.com/"
            value={choice.url}
            data-testid="import-url"
            onInput={(event) => set({ url: event.currentTarget.value })}
          />
          <span class="import-hint">Its pages and the pages they link to on the same site are imported.</span>
        </label>
      ) : (
        <div
          class={`import-drop${over ? ' over' : ''}`}
          data-testid="import-drop"
          onDragOver={(event) => {
            event.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
        >
          <label class="import-field">
            Markdown or HTML files, or a .zip of a GitBook export
            <input
              type="file"
              multiple
              accept={IMPORT_FILE_ACCEPT}
              data-testid="import-files"
              onChange={(event) => set({ files: Array.from(event.currentTarget.files ?? []) })}
            />
          </label>
          <span class="import-hint">or drop them here</span>
          {choice.files.length > 0 && (
            <ul class="import-files" data-testid="import-file-list">
              {choice.files.map((file, i) => (
                <li key={`${i}-${file.name}`}>
                  {file.name} <span class="import-hint">({formatSize(file.size)})</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
