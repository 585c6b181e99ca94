import type { ApiClient } from '../api/client';
import type { UploadSlot } from '../api/types';

/**
 * GitBook's content import as the app calls it: files go to storage first (generateStorageUploadURL
 * with kind `import_file`, then a PUT of the bytes), a run is started with their keys or a website's
 * URL, and the run is read until it ends. The server does the work on its job runner; the pages it
 * writes reach the tree through the space's document, like anyone's edit.
 */

export type ImportSource = { type: 'website'; url: string } | { type: 'file'; files: string[] };
export type ImportStatus = 'pending' | 'in-progress' | 'completed' | 'failed' | 'cancelled';

/**
 * The fields of GitBook's ContentImportRun the dialog shows, with its counts: `totalPages` and
 * `importedPages` (GitBook's names), the rest Folio's. Absent until the run has read something.
 */
export interface ImportRun {
  id: string;
  status: ImportStatus;
  reason?: string;
  pages: { id: string; sourceURL?: string; type?: 'page' | 'folder'; status: 'complete' | 'pending' }[];
  totalPages?: number;
  importedPages?: number;
  skippedPages?: number;
  totalFiles?: number;
  importedFiles?: number;
  skippedFiles?: number;
  /** What a completed run left out, and why (the first 50). */
  skipped?: { source: string; code: string; message: string }[];
}

/** Where the pages go: a space, or one of its change requests. */
export interface ImportTarget {
  organizationId: string;
  spaceId: string;
  changeRequestId?: string;
}

/** What the file input accepts: the types the server reads (a GitBook export is a .zip). */
export const IMPORT_FILE_ACCEPT = '.md,.markdown,.html,.htm,.zip,text/markdown,text/html,application/zip';
const IMPORT_EXTENSIONS = /\.(md|markdown|html?|zip)$/i;
/** GitBook's limit on a file source (the server refuses more, this says so before uploading). */
export const MAX_IMPORT_FILES = 50;

/** Why these files cannot be imported, or undefined when they can (checked before any upload). */
export function refuseFiles(files: File[]): string | undefined {
  if (files.length === 0) return 'Choose at least one file.';
  if (files.length > MAX_IMPORT_FILES) return `Choose at most ${MAX_IMPORT_FILES} files.`;
  const odd = files.find((f) => !IMPORT_EXTENSIONS.test(f.name));
  if (odd) return `“${odd.name}” is not a Markdown, HTML or .zip file.`;
  const empty = files.find((f) => f.size === 0);
  if (empty) return `“${empty.name}” is empty.`;
  return undefined;
}

/** The content type to declare for a file the browser could not type (.md often has none). */
function typeOf(file: File): string {
  if (file.type) return file.type;
  if (/\.zip$/i.test(file.name)) return 'application/zip';
  if (/\.html?$/i.test(file.name)) return 'text/html';
  return 'text/markdown';
}

/** Uploads one file for an import; returns its storage key. */
export async function uploadImportFile(api: ApiClient, organizationId: string, file: File): Promise<string> {
  const type = typeOf(file);
  const slot = await api.request<UploadSlot>(`/orgs/${organizationId}/storage/upload`, {
    method: 'POST',
    body: { file: { name: file.name, type, size: file.size }, kind: 'import_file' },
  });
  await api.putBytes(slot.url, file, type);
  return slot.key;
}

export function startImport(api: ApiClient, target: ImportTarget, source: ImportSource): Promise<ImportRun> {
  return api.request<ImportRun>(`/org/${target.organizationId}/imports`, {
    method: 'POST',
    body: {
      source,
      target: { space: target.spaceId, ...(target.changeRequestId ? { changeRequest: target.changeRequestId } : {}) },
    },
  });
}

export function getImport(api: ApiClient, organizationId: string, runId: string): Promise<ImportRun> {
  return api.request<ImportRun>(`/org/${organizationId}/imports/${runId}`);
}

export function cancelImport(api: ApiClient, organizationId: string, runId: string): Promise<ImportRun> {
  return api.request<ImportRun>(`/org/${organizationId}/imports/${runId}/cancel`, { method: 'POST' });
}

/** Whether a run has ended (nothing more to poll). */
export const ended = (run: ImportRun) =>
  run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled';
