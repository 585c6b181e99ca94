import { join } from 'node:path';
import type { Clock } from '../clock';
import type { BlobStore } from './blob-store';
import { FileBlobStore } from './blobs';

/** Where the bucket is and how to address it (FOLIO_S3_*; credentials come from the SDK's usual chain). */
export interface S3Settings {
  bucket: string;
  /** An S3-compatible server's URL (MinIO, Ceph RGW, R2, Garage); undefined = AWS. */
  endpoint: string | undefined;
  region: string | undefined;
  /** Prepended to every key: '' or ending in '/'. */
  prefix: string;
  /** Path-style addressing (`endpoint/bucket/key`), which MinIO and Ceph usually need. */
  forcePathStyle: boolean;
}

/** The blob settings of the server's configuration (config.ts). */
export interface BlobSettings {
  dataDir: string;
  s3Bucket: string | undefined;
  s3Endpoint: string | undefined;
  s3Region: string | undefined;
  s3Prefix: string;
  s3ForcePathStyle: boolean;
}

/** The S3 settings of a configuration, or undefined when blobs stay in the data folder. */
export function s3SettingsOf(config: BlobSettings): S3Settings | undefined {
  if (!config.s3Bucket) return undefined;
  return {
    bucket: config.s3Bucket,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    prefix: config.s3Prefix,
    forcePathStyle: config.s3ForcePathStyle,
  };
}

/**
 * The blob store a configuration names: the bucket of FOLIO_S3_BUCKET, or
 * `<dataDir>/blobs`. The AWS SDK is loaded only when a bucket is configured
 * (it is heavy, and most installations never need it).
 */
export async function openBlobStore(config: BlobSettings, clock: Clock): Promise<BlobStore> {
  const s3 = s3SettingsOf(config);
  if (!s3) return new FileBlobStore(join(config.dataDir, 'blobs'), clock);
  const { S3BlobStore } = await import('./s3-blobs');
  return new S3BlobStore(s3);
}
