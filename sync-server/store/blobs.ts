import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';

const SHA256 = /^[0-9a-f]{64}$/;

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
 * Content-addressed file bytes in `<dataDir>/blobs/ab/cd/<sha256>`. Writing
 * the same bytes twice stores them once. Bytes arrive as a stream and are
 * written to `incoming/` while they are hashed (never held in memory), then
 * renamed into place, so a crash never leaves a partial blob under its final
 * name.
 */
export class BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error('not a sha256 digest');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  private get incoming(): string {
    return join(this.root, 'incoming');
  }

  /**
   * Stores the bytes of `source`, which must be exactly `size` bytes, and
   * returns their sha256. Another length throws BlobSizeError (as soon as an
   * excess byte arrives: the rest is not read); a stream that fails throws
   * BlobInterruptedError; either way nothing is stored. The source is never
   * destroyed: the caller still answers on its connection.
   */
  async putStream(source: Readable, size: number): Promise<{ sha256: string; size: number }> {
    await mkdir(this.incoming, { recursive: true });
    const tmp = join(this.incoming, `${randomBytes(12).toString('hex')}.tmp`);
    const hash = createHash('sha256');
    let received = 0;
    const file = await open(tmp, 'wx', 0o600);
    try {
      try {
        // destroyOnReturn: false — stopping early must not reset the connection the error answer goes out on.
        for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
          received += chunk.byteLength;
          if (received > size) throw new BlobSizeError(size, undefined);
          hash.update(chunk);
          // Awaiting each write is the backpressure: at most one chunk per upload is in memory.
          await file.write(chunk);
        }
      } catch (err) {
        throw err instanceof BlobSizeError ? err : new BlobInterruptedError(err);
      } finally {
        await file.close();
      }
      if (received !== size) throw new BlobSizeError(size, received);
      const sha256 = hash.digest('hex');
      if (!(await this.has(sha256))) {
        const path = this.pathOf(sha256);
        await mkdir(dirname(path), { recursive: true });
        await rename(tmp, path);
      }
      return { sha256, size };
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Removes partial uploads nothing has written to for `idleMs` (left by a crash). */
  async sweepIncoming(idleMs: number, now = Date.now()): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.incoming);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.incoming, name);
      const info = await stat(path).catch(() => undefined);
      if (info && now - info.mtimeMs > idleMs) await rm(path, { force: true });
    }
  }

  async has(sha256: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(sha256))).isFile();
    } catch {
      return false;
    }
  }

  /** Size of a stored blob, or undefined when absent. */
  async size(sha256: string): Promise<number | undefined> {
    try {
      return (await stat(this.pathOf(sha256))).size;
    } catch {
      return undefined;
    }
  }

  /** A stream of a stored blob's bytes (the caller checked it exists). */
  read(sha256: string): Readable {
    return createReadStream(this.pathOf(sha256));
  }
}
