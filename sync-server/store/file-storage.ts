import { join } from 'node:path';
import type { Urls } from '../urls';
import type { Queryable } from './db';
import { UrlSigner } from './url-signer';
import { BlobStore } from './blobs';

/** Where file bytes live and how URLs to them are signed. */
export interface Storage {
  blobs: BlobStore;
  signer: UrlSigner;
  /** The capability URL of a stored file, for `downloadURL` fields. */
  downloadUrl(file: { sha256: string; name: string; contentType: string }): string;
}

/** Largest accepted upload (bytes). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/**
 * Builds the storage of a server: the blob folder in the data dir and the
 * installation's URL-signing key. Download URLs do not expire: they are
 * embedded in cached revision JSON and must stay valid as long as it does;
 * knowing one is the capability to read that one file, like a share link.
 */
export async function createStorage(db: Queryable, dataDir: string, urls: Urls): Promise<Storage> {
  const signer = await UrlSigner.load(db);
  const blobs = new BlobStore(join(dataDir, 'blobs'));
  return {
    blobs,
    signer,
    downloadUrl(file) {
      const signature = signer.sign(downloadPayload(file.sha256, file.contentType));
      const query = new URLSearchParams({ type: file.contentType, signature });
      return urls.api(`/files/${file.sha256}/${encodeURIComponent(file.name)}?${query}`);
    },
  };
}

/** What a download signature covers: the bytes and the type they are served as. */
export function downloadPayload(sha256: string, contentType: string): string {
  return `file:${sha256}:${contentType}`;
}

/** What an upload signature covers: the slot and its expiry. */
export function uploadPayload(key: string, expires: number): string {
  return `upload:${key}:${expires}`;
}
