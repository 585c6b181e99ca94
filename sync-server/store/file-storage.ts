import type { Clock } from '../clock';
import type { Urls } from '../urls';
import type { Queryable } from './db';
import { UrlSigner } from './url-signer';
import { INCOMING_IDLE_MS, type BlobStore } from './blob-store';
import { downloadName, downloadType } from './file-fields';

/** A file of a space's content, as download links need it. */
export interface LinkedFile {
  sha256: string;
  name: string;
  contentType: string;
}

/** Where file bytes live and how URLs to them are signed. */
export interface Storage {
  blobs: BlobStore;
  signer: UrlSigner;
  /**
   * The signed download URL of a file of the space `spaceId` (its content or
   * one of its change requests), for `downloadURL` fields and published pages.
   * It serves the bytes only while the space's organization owns the blob, and
   * expires (see LINK_TTL_MS).
   */
  downloadUrl(file: LinkedFile, spaceId: string): string;
  /**
   * The current link period: every link signed in one period is the same
   * string, so a cache of JSON or HTML holding download links adds this to its
   * key and is re-rendered once per period, before its links expire.
   */
  linkEpoch(): number;
}

/** Largest accepted upload (bytes). */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;

/** Download links are signed per period of this length (a day)… */
export const LINK_PERIOD_MS = 24 * 60 * 60 * 1000;
/** …and stay valid this long after the end of their period: at least 7, at most 8 days after they were handed out. */
export const LINK_TTL_MS = 7 * LINK_PERIOD_MS;

/**
 * Builds the storage of a server: its blob store (the data folder or a
 * bucket, see open-blob-store.ts) and the installation's URL-signing key. A download link names the blob, the space
 * it was handed out for and the content type it is served as, and carries an
 * expiry rounded to a day, so cached revision JSON stays byte-identical for a
 * day and a leaked link stops working within 8 days.
 */
export async function createStorage(db: Queryable, blobs: BlobStore, urls: Urls, clock: Clock): Promise<Storage> {
  const signer = await UrlSigner.load(db);
  // Uploads and batches cut short by a crash leave files behind; a live upload keeps touching its file,
  // a batch's staged files wait for it to be applied (another process may be applying it now).
  void blobs.sweepIncoming(INCOMING_IDLE_MS).catch(() => undefined);
  const epochOf = (now: Date) => Math.floor(now.getTime() / LINK_PERIOD_MS);
  return {
    blobs,
    signer,
    linkEpoch: () => epochOf(clock.now()),
    downloadUrl(file, spaceId) {
      const expires = Math.floor(((epochOf(clock.now()) + 1) * LINK_PERIOD_MS + LINK_TTL_MS) / 1000);
      // Entries stored before names and types were checked still get a link the download route accepts.
      const type = downloadType(file.contentType);
      const signature = signer.sign(downloadPayload({ sha256: file.sha256, contentType: type, spaceId, expires }));
      const query = new URLSearchParams({
        space: spaceId,
        type,
        expires: String(expires),
        signature,
      });
      return urls.api(`/files/${file.sha256}/${encodeURIComponent(downloadName(file.name))}?${query}`);
    },
  };
}

/**
 * What a download signature covers: the bytes, the space they are served for
 * (its organization must own them), the type they are served as, and the expiry.
 */
export function downloadPayload(link: { sha256: string; spaceId: string; contentType: string; expires: number }) {
  return `file:${link.sha256}:${link.spaceId}:${link.contentType}:${link.expires}`;
}

/** What an upload signature covers: the slot and its expiry. */
export function uploadPayload(key: string, expires: number): string {
  return `upload:${key}:${expires}`;
}
