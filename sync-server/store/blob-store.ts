import type { Readable } from 'node:stream';

/**
 * What every blob store does: content-addressed file bytes (sha256), written
 * from a stream while hashed, never under their final name until whole. Two
 * implementations: the data folder (blobs.ts, the default) and S3-compatible
 * object storage (s3-blobs.ts, when FOLIO_S3_BUCKET is set). Everything that
 * reads or writes file bytes goes through this interface.
 */
export interface BlobStore {
  /** Where the bytes live, for /readyz and logs. */
  readonly kind: 'folder' | 's3';
  /**
   * Stores the bytes of `source`, which must be exactly `size` bytes, and
   * returns their sha256. Another length throws BlobSizeError (as soon as an
   * excess byte arrives: the rest is not read); a stream that fails throws
   * BlobInterruptedError; a store that cannot be reached throws
   * BlobStoreUnavailableError; whatever failed, nothing is stored under the
   * digest. The source is never destroyed: the caller still answers on its connection.
   */
  putStream(source: Readable, size: number): Promise<{ sha256: string; size: number }>;
  /**
   * Writes and hashes the bytes of `source` (exactly `size` of them, as
   * putStream) for a batch, whose bytes should only be used if it is applied:
   * `promote` makes them part of the store, `discard` drops what was not promoted.
   */
  stage(source: Readable, size: number): Promise<StagedBlob>;
  /** Puts a staged blob in place, stamped now. Synchronous: a batch calls it inside its document change. */
  promote(staged: StagedBlob): void;
  /** Removes what `stage` wrote for a blob that was not promoted (a no-op once it was). */
  discard(staged: StagedBlob): Promise<void>;
  /** Every stored blob with the time it was last put in place. */
  stored(): AsyncIterable<{ sha256: string; storedAt: Date }>;
  /** Deletes the blob `sha256` if it was last put in place before `before`; false when it was absent or newer. */
  removeIfStoredBefore(sha256: string, before: Date): Promise<boolean>;
  /** Removes partial uploads and staged bytes nothing has written to for `idleMs` (left by a crash). */
  sweepIncoming(idleMs: number, now?: number): Promise<void>;
  has(sha256: string): Promise<boolean>;
  /** Size of a stored blob, or undefined when absent. */
  size(sha256: string): Promise<number | undefined>;
  /** A stream of a stored blob's bytes (the caller checked it exists). */
  read(sha256: string): Promise<Readable>;
  /** Resolves when the store answers (readiness); throws BlobStoreUnavailableError otherwise. */
  check(): Promise<void>;
  /** Releases connections (the process is stopping). */
  close(): Promise<void>;
}

/** Bytes written and hashed but not yet in the store (see BlobStore.stage). */
export interface StagedBlob {
  sha256: string;
  size: number;
  /** Where the store holds the bytes until promote or discard (a file path, an object key). */
  readonly ref: string;
}

/** The bytes offered for a blob are not as many as announced (`got` undefined: more, cut off at once). */
export class BlobSizeError extends Error {
  constructor(
    readonly expected: number,
    readonly got: number | undefined,
  ) {
    super(`expected ${expected} bytes, got ${got ?? 'more'}`);
    this.name = 'BlobSizeError';
  }
}

/** The stream of a blob's bytes failed before its end (the client went away). */
export class BlobInterruptedError extends Error {
  constructor(cause: unknown) {
    super('the bytes stopped arriving', { cause });
    this.name = 'BlobInterruptedError';
  }
}

/**
 * The blob store did not answer, or refused (bucket unreachable, 5xx,
 * throttled, credentials denied): the request may succeed later, so routes
 * answer 503 with Retry-After (http/error-handler.ts).
 */
export class BlobStoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the blob store is not reachable', { cause });
    this.name = 'BlobStoreUnavailableError';
  }
}

/** The sha256 digests blobs are stored under. */
export const SHA256 = /^[0-9a-f]{64}$/;

/**
 * How long a file in `incoming/` may go unwritten before it counts as left by
 * a crash: longer than any upload stalls and than any batch waits between
 * staging its first file and applying (it may fetch a thousand URLs).
 */
export const INCOMING_IDLE_MS = 24 * 60 * 60 * 1000;
