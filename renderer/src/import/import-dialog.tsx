import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { openDialog } from '../ui/kit/dialog';
import { FormDialog, FormError } from '../ui/kit/form-dialog';
import { SourceFields, type SourceChoice } from './import-source';
import { ImportProgress } from './import-progress';
import { refuseFiles, startImport, uploadImportFile, type ImportRun, type ImportTarget } from './import-api';
import './import.css';

/** Opens "Import…" for a space; resolves when the dialog closes (the run may go on on the server). */
export function openImportDialog(api: ApiClient, target: ImportTarget): Promise<void> {
  return openDialog<void>((close) => <ImportDialog api={api} target={target} onClose={() => close()} />);
}

/**
 * First the source (a website, or files), then the run: Start uploads the files, starts the run and
 * the dialog turns into its progress. Refusals (a URL the server will not fetch, a file it cannot
 * read) show in the server's words and leave the form as it was.
 */
export function ImportDialog(props: { api: ApiClient; target: ImportTarget; onClose: () => void }) {
  const [choice, setChoice] = useState<SourceChoice>({ kind: 'website', url: '', files: [] });
  const [run, setRun] = useState<ImportRun>();
  const [uploading, setUploading] = useState('');

  const start = async () => {
    const { api, target } = props;
    let source;
    if (choice.kind === 'website') {
      const url = choice.url.trim();
      if (!url) throw new FormError('Enter the address of the website.');
      source = { type: 'website' as const, url };
    } else {
      const refused = refuseFiles(choice.files);
      if (refused) throw new FormError(refused);
      const keys: string[] = [];
      try {
        for (const [i, file] of choice.files.entries()) {
          setUploading(`Uploading ${file.name} (${i + 1} of ${choice.files.length})…`);
          keys.push(await uploadImportFile(api, target.organizationId, file));
        }
      } finally {
        setUploading('');
      }
      source = { type: 'file' as const, files: keys };
    }
    setRun(await startImport(api, target, source));
  };

  if (run) return <ImportProgress api={props.api} target={props.target} run={run} onClose={props.onClose} />;
  return (
    <FormDialog
      title="Import content"
      submitLabel="Start import"
      testid="import-dialog"
      submitTestid="import-start"
      onSubmit={start}
      onClose={props.onClose}
    >
      <SourceFields choice={choice} onChange={setChoice} />
      <p class="import-status" aria-live="polite" data-testid="import-uploading">
        {uploading}
      </p>
    </FormDialog>
  );
}
