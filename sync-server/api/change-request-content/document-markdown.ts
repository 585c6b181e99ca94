import type { JSONDocument } from '../../../shared/markdown/document-types';
import type { documentToMarkdown as Serializer } from '../../../shared/markdown/from-document';
import type { ContentChange } from './schemas';

/**
 * GitBook JSON documents to markdown for a content batch, with the markdown toolchain (~85 ms of
 * CPU, ~10 MiB) loaded on the first batch that carries such a document instead of at every boot.
 * Applying a batch is synchronous (it runs inside one document transaction), so the request loads
 * the serializer first (`loadDocumentMarkdown`) and the batch then converts synchronously.
 */
let serializer: typeof Serializer | undefined;

/** Whether any change of the batch carries a JSON document (markdown ones need no serializer). */
export function needsDocumentMarkdown(changes: readonly ContentChange[]): boolean {
  return changes.some((c) => {
    const document = (c as { document?: object }).document;
    return typeof document === 'object' && document !== null && !('markdown' in document);
  });
}

/** Loads the serializer when the batch needs it (at most once per process). */
export async function loadDocumentMarkdown(changes: readonly ContentChange[]): Promise<void> {
  if (serializer || !needsDocumentMarkdown(changes)) return;
  ({ documentToMarkdown: serializer } = await import('../../../shared/markdown/from-document'));
}

/** The markdown of a JSON document; only after `loadDocumentMarkdown` for its batch. */
export function documentToMarkdown(document: JSONDocument): string {
  if (!serializer) throw new Error('documentToMarkdown: loadDocumentMarkdown was not awaited for this batch');
  return serializer(document);
}
