import { join } from 'node:path';
import type { Config } from './config';
import { FileBlobStore } from './store/blobs';
import { migrateBlobs } from './store/migrate-blobs';
import { openBlobStore } from './store/open-blob-store';
import { systemClock } from './clock';

/**
 * `folio blobs migrate`: copies `<dataDir>/blobs` to the configured bucket
 * (store/migrate-blobs.ts) and prints what it did; returns a failure message
 * (exit 1) or undefined.
 */
export async function migrateBlobsFromCli(config: Config, print: (line: string) => void): Promise<string | undefined> {
  if (!config.s3Bucket) return 'FOLIO_S3_BUCKET is not set: there is no bucket to copy the blobs to';
  const source = new FileBlobStore(join(config.dataDir, 'blobs'));
  const target = await openBlobStore(config, systemClock);
  try {
    await target.check().catch((err: unknown) => {
      const cause = (err as { cause?: unknown }).cause;
      throw new Error(`the bucket ${config.s3Bucket} is not reachable: ${(cause as Error)?.message ?? String(err)}`);
    });
    const result = await migrateBlobs(source, target, print);
    for (const f of result.failed) print(`failed ${f.sha256}: ${f.reason}`);
    print(
      `${result.copied} copied, ${result.present} already in the bucket, ${result.failed.length} failed (${join(config.dataDir, 'blobs')} -> ${config.s3Bucket})`,
    );
    return result.failed.length > 0 ? `${result.failed.length} blobs could not be copied` : undefined;
  } finally {
    await target.close();
  }
}
