import type { Clock } from '../clock';
import type { Db } from '../store/db';
import type { Storage } from '../store/file-storage';
import { INCOMING_IDLE_MS } from '../store/blob-store';
import { forgetBlobOwners, restoreBlobOwners } from '../store/blob-owners';
import { usedBlobs } from '../store/blob-references';

/** What the collector of unused blobs works with. */
export interface CollectDeps {
  db: Db;
  clock: Clock;
  storage: Pick<Storage, 'blobs'>;
}

/**
 * How long a blob is kept after it was last put in place, used or not. It
 * covers what the database cannot show yet: a change request or space whose
 * newest edits (naming the blob) are committed to its live document but not
 * yet in a revision (cut after a quiet period of seconds), and an upload
 * between its bytes landing and its slot recording them.
 */
export const BLOB_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the stored blobs nothing uses (see store/blob-references.ts) that
 * were put in place more than BLOB_GRACE_MS ago (by the injected clock), with
 * the rows recording who owned them. Bytes of a batch still being applied are
 * not in the store at all (they are staged until the batch is applied), and a
 * writer that puts the same bytes in place while a blob is being collected
 * keeps them, and its owners (BlobStore.removeIfStoredBefore). Run under a lock, so one
 * process collects at a time. Returns how many blobs were deleted.
 */
export async function collectUnusedBlobs(ctx: CollectDeps): Promise<number> {
  const { blobs } = ctx.storage;
  const before = new Date(ctx.clock.now().getTime() - BLOB_GRACE_MS);
  const old: string[] = [];
  for await (const blob of blobs.stored()) if (blob.storedAt < before) old.push(blob.sha256);
  const used = await usedBlobs(ctx.db, old);
  let collected = 0;
  for (const sha256 of old) {
    if (used.has(sha256)) continue;
    // Owners first: a writer putting the same bytes back meanwhile records its owner after this.
    const owners = await forgetBlobOwners(ctx.db, sha256);
    if (await blobs.removeIfStoredBefore(sha256, before)) collected++;
    else await restoreBlobOwners(ctx.db, sha256, owners);
  }
  // Staged bytes of batches and uploads cut short by a crash (their times are real time, not the job's clock).
  await blobs.sweepIncoming(INCOMING_IDLE_MS);
  return collected;
}
