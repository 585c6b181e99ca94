import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store';

/** What one run of `folio blobs migrate` did. */
export interface BlobMigration {
  /** Blobs copied to the target (and read back matching their digest). */
  copied: number;
  /** Blobs the target already held whole (read back matching their digest): a resumed run skips them. */
  present: number;
  /** Blobs that could not be moved, with why (a corrupt source file, a digest mismatch in the target). */
  failed: { sha256: string; reason: string }[];
}

/**
 * Copies every blob of `source` (the data folder) to `target` (the bucket),
 * so an installation can move its file bytes without stopping: run it while
 * the servers still use the folder, switch them to the bucket one at a time,
 * and run it again for what they stored in between. Resumable: a blob the
 * target already holds with the right digest is not copied again. Verified:
 * every blob is read back from the target and hashed, and a source file whose
 * bytes do not hash to its name is reported, never copied under that name.
 * The source is left as it is (delete the folder once every process uses the bucket).
 */
export async function migrateBlobs(
  source: BlobStore,
  target: BlobStore,
  progress: (line: string) => void = () => undefined,
): Promise<BlobMigration> {
  const result: BlobMigration = { copied: 0, present: 0, failed: [] };
  for await (const { sha256 } of source.stored()) {
    const size = await source.size(sha256);
    if (size === undefined) continue; // collected meanwhile
    if ((await target.size(sha256)) === size && (await digestOf(target, sha256)) === sha256) {
      result.present++;
      continue;
    }
    const put = await target.putStream(await source.read(sha256), size);
    if (put.sha256 !== sha256) {
      // The file's bytes are not the ones its name promises: copying them would serve wrong bytes.
      result.failed.push({ sha256, reason: `the data folder's file hashes to ${put.sha256}` });
      continue;
    }
    const stored = await digestOf(target, sha256);
    if (stored !== sha256) {
      result.failed.push({ sha256, reason: `the copy in the bucket hashes to ${stored}` });
      continue;
    }
    result.copied++;
    if ((result.copied + result.present) % 100 === 0)
      progress(`${result.copied} copied, ${result.present} already there, ${result.failed.length} failed`);
  }
  return result;
}

/** The sha256 of the bytes `store` holds under `sha256`, streamed. */
async function digestOf(store: BlobStore, sha256: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await store.read(sha256)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
