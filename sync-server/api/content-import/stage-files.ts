import { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { newEntityId } from '../../../shared/doc';
import type { StagedBlob } from '../../store/blob-store';
import type { ImportedFile } from '../../import/types';
import type { BatchPlan, PreparedFile } from '../change-request-content/apply';
import { stagedFiles, type StagedFiles } from '../change-request-content/files';

/**
 * An import's files, staged for its one content change the way prepareFiles
 * (change-request-content/files.ts) stages a batch's: written beside the blob
 * store while hashed, owned by the organization before the document names
 * them, put in place inside the change (`promote`), removed again if the
 * change is refused. Unlike a batch's inline files they skip base64 and its
 * 1 MiB limit (GitBook's, for REST bodies): the run holds the bytes already,
 * each at most FOLIO_IMPORT_MAX_FILE_BYTES, and a base64 copy of a 10 MiB image
 * would only be 13 MiB more in memory. The plan's refs and files of change
 * `changeIndex` (the batch's insert_files) are filled here.
 */
export async function stageImportFiles(
  ctx: AppContext,
  organizationId: string,
  files: readonly ImportedFile[],
  changeIndex: number,
  plan: BatchPlan,
): Promise<StagedFiles> {
  const { blobs } = ctx.storage;
  const staged: StagedBlob[] = [];
  const prepared: PreparedFile[] = [];
  const discard = () => Promise.all(staged.map((s) => blobs.discard(s)));
  try {
    for (const file of files) {
      const blob = await blobs.stage(Readable.from([file.bytes]), file.bytes.length);
      staged.push(blob);
      const id = newEntityId();
      plan.refs.files.set(file.ref, id);
      prepared.push({
        id,
        ref: file.ref,
        meta: { name: file.name, contentType: file.contentType, size: blob.size, sha256: blob.sha256 },
      });
    }
  } catch (err) {
    await discard();
    throw err;
  }
  if (prepared.length > 0) plan.files.set(changeIndex, prepared);
  return stagedFiles(ctx, organizationId, staged, prepared);
}
