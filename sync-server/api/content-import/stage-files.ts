import { Readable } from 'node:stream';
import type { AppContext } from '../../context';
import { newEntityId } from '../../../shared/doc';
import { claimBlobOwners, recordBlobOwners, releaseBlobOwners } from '../../store/blob-owners';
import type { StagedBlob } from '../../store/blob-store';
import type { ImportedFile } from '../../import/types';
import type { BatchPlan, PreparedFile } from '../change-request-content/apply';
import type { StagedFiles } from '../change-request-content/files';

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
  const digests = staged.map((s) => s.sha256);
  let promoted = false;
  return {
    files: prepared,
    promote() {
      // Set first: once any blob may be in place, its ownership rows stay (the collector tidies up).
      promoted = true;
      for (const blob of staged) blobs.promote(blob);
    },
    async commit(apply) {
      try {
        // Owned before the document names them, so a crash right after its commit leaves nothing unowned.
        const created = await claimBlobOwners(ctx.db, organizationId, digests);
        try {
          return await apply();
        } catch (err) {
          if (!promoted) await releaseBlobOwners(ctx.db, organizationId, created);
          throw err;
        } finally {
          // A refused batch of the same organization with the same bytes may have released a row this one relied on.
          if (promoted) await recordBlobOwners(ctx.db, organizationId, digests);
        }
      } finally {
        await discard();
      }
    },
  };
}
