import { createHash, randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobInterruptedError,
  BlobSizeError,
  BlobStoreUnavailableError,
  SHA256,
  type BlobStore,
  type StagedBlob,
} from './blob-store';
import type { S3Settings } from './open-blob-store';

/** Multipart part size: the smallest S3 accepts. QUEUE parts upload at once, and one more fills: about 15 MiB per upload. */
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 2;

/**
 * Content-addressed blobs in an S3-compatible bucket, under
 * `<prefix>ab/cd/<sha256>` (the data folder's layout, so `folio blobs
 * migrate` copies paths as they are). Bytes are streamed to a private key
 * under `<prefix>incoming/` with a multipart upload while they are hashed
 * (about QUEUE + 1 parts of PART_BYTES in memory), then copied server-side to
 * their digest's key — an object appears whole or not at all, so nothing
 * half-written is ever found under a digest — and the private key deleted.
 *
 * Differences from the data folder, because S3 has no rename and `promote`
 * must stay synchronous (it runs inside a document change):
 * - `stage` already copies the bytes to their digest's key; `promote` has
 *   nothing left to do. Bytes of a refused batch are then stored but owned
 *   by nobody and named by nothing: no link serves them, and the collector of
 *   unused blobs deletes them after its grace period.
 * - Every write copies the object again, so its LastModified (the time the
 *   collector's grace period counts from) is refreshed as the folder's mtime is.
 * - `removeIfStoredBefore` checks the time, then deletes: a writer putting
 *   the same bytes back in the instant between the two loses them (the
 *   folder store closes that window with a rename). The grace period of a day
 *   makes that need bytes unused for a day to be re-uploaded in that instant.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where the protocol requires them: many S3-compatible servers refuse the newer trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // A bucket that does not answer is reported (503) within seconds, not after the OS's timeouts.
      requestHandler: { connectionTimeout: 5000, requestTimeout: 30_000 },
    });
  }

  private key(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error('not a sha256 digest');
    return `${this.settings.prefix}${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
  }

  private get incoming(): string {
    return `${this.settings.prefix}incoming/`;
  }

  /** Runs a call of the client; anything but an answer (or a 404) becomes BlobStoreUnavailableError. */
  private async call<T>(send: (client: S3Client) => Promise<T>): Promise<T> {
    try {
      return await send(this.client);
    } catch (err) {
      throw isMissing(err) ? err : new BlobStoreUnavailableError(err);
    }
  }

  async putStream(source: Readable, size: number): Promise<{ sha256: string; size: number }> {
    const staged = await this.stage(source, size);
    return { sha256: staged.sha256, size: staged.size };
  }

  async stage(source: Readable, size: number): Promise<StagedBlob> {
    const tmp = `${this.incoming}${randomBytes(12).toString('hex')}`;
    const body = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: tmp, Body: body },
      partSize: PART_BYTES,
      queueSize: QUEUE,
    });
    let uploadFailed: unknown;
    const uploaded = upload.done().catch((err: unknown) => {
      uploadFailed = err;
      body.destroy();
    });
    const hash = createHash('sha256');
    let received = 0;
    try {
      try {
        // destroyOnReturn: false — stopping early must not reset the connection the error answer goes out on.
        for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
          received += chunk.byteLength;
          if (received > size) throw new BlobSizeError(size, undefined);
          hash.update(chunk);
          // Backpressure: wait while the upload's parts are full (or stop when it failed).
          if (!body.write(chunk)) await drained(body);
          if (uploadFailed !== undefined) break;
        }
      } catch (err) {
        throw err instanceof BlobSizeError ? err : new BlobInterruptedError(err);
      }
      if (uploadFailed === undefined && received !== size) throw new BlobSizeError(size, received);
      body.end();
      await uploaded;
      if (uploadFailed !== undefined) throw new BlobStoreUnavailableError(uploadFailed);
      const sha256 = hash.digest('hex');
      // Server-side copy: the object appears under its digest whole, and its LastModified is now.
      await this.call((c) =>
        c.send(
          new CopyObjectCommand({
            Bucket: this.settings.bucket,
            Key: this.key(sha256),
            // CopySource is a URL path: a prefix may hold characters that need escaping there.
            CopySource: `${this.settings.bucket}/${tmp.split('/').map(encodeURIComponent).join('/')}`,
          }),
        ),
      );
      await this.deleteQuietly(tmp);
      return { sha256, size, ref: tmp };
    } catch (err) {
      // An unfinished multipart upload is aborted (its parts deleted); a finished one's object is removed.
      if (uploadFailed === undefined) await upload.abort().catch(() => undefined);
      body.destroy();
      await uploaded;
      await this.deleteQuietly(tmp);
      throw err;
    }
  }

  /** Nothing to do: `stage` put the bytes under their digest already (see the class comment). */
  promote(): void {}

  /** Nothing to do: the private copy is gone, and bytes under a digest may be someone else's too. */
  async discard(): Promise<void> {}

  async *stored(): AsyncGenerator<{ sha256: string; storedAt: Date }> {
    let token: string | undefined;
    do {
      const page = await this.call((c) =>
        c.send(
          new ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.settings.prefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      for (const o of page.Contents ?? []) {
        const name = o.Key?.slice(this.settings.prefix.length) ?? '';
        const m = /^([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/.exec(name);
        if (m && m[3]!.startsWith(m[1]! + m[2]!) && o.LastModified) yield { sha256: m[3]!, storedAt: o.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async removeIfStoredBefore(sha256: string, before: Date): Promise<boolean> {
    const head = await this.head(this.key(sha256));
    if (!head?.LastModified || head.LastModified.getTime() >= before.getTime()) return false;
    await this.call((c) => c.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(sha256) })));
    return true;
  }

  async sweepIncoming(idleMs: number, now = Date.now()): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.call((c) =>
        c.send(
          new ListObjectsV2Command({
            Bucket: this.settings.bucket,
            Prefix: this.incoming,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        ),
      );
      for (const o of page.Contents ?? [])
        if (o.Key && o.LastModified && now - o.LastModified.getTime() > idleMs) await this.deleteQuietly(o.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.head(this.key(sha256))) !== undefined;
  }

  async size(sha256: string): Promise<number | undefined> {
    return (await this.head(this.key(sha256)))?.ContentLength;
  }

  async read(sha256: string): Promise<Readable> {
    const got = await this.call((c) =>
      c.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(sha256) })),
    );
    // In Node the SDK's body is an http.IncomingMessage: a Readable.
    return got.Body as unknown as Readable;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }));
    } catch (err) {
      // A missing bucket is a store that cannot serve either.
      throw new BlobStoreUnavailableError(err);
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async head(key: string): Promise<{ ContentLength?: number; LastModified?: Date } | undefined> {
    try {
      return await this.call((c) => c.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key })));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  private async deleteQuietly(key: string): Promise<void> {
    // Left behind when the bucket is unreachable: sweepIncoming removes it later.
    await this.call((c) => c.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }))).catch(
      () => undefined,
    );
  }
}

/** A 404 answer (no such key): the object is absent, the store itself answered. */
function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** Resolves when `stream` can take more, or when it was destroyed (the upload failed). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
