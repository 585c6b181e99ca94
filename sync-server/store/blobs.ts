import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, renameSync, utimesSync } from 'node:fs';
import { access, constants, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { systemClock, type Clock } from '../clock';
import {
  BlobInterruptedError,
  BlobSizeError,
  BlobStoreUnavailableError,
  SHA256,
  type BlobStore,
  type StagedBlob,
} from './blob-store';

/**
 * Content-addressed file bytes in `<dataDir>/blobs/ab/cd/<sha256>`. Writing
 * the same bytes twice stores them once. Bytes arrive as a stream and are
 * written to `incoming/` while they are hashed (never held in memory), then
 * renamed into place, so a crash never leaves a partial blob under its final
 * name.
 *
 * A blob's modification time is when it was last put in place (by `clock`):
 * every write renames its fresh copy over the stored one (same bytes) and
 * stamps it, so the collector of unused blobs (which only takes blobs older
 * than a grace period, see `removeIfStoredBefore`) never takes one a writer has just
 * handed to an upload or a batch that has not recorded its use yet.
 */
export class FileBlobStore implements BlobStore {
  readonly kind = 'folder' as const;

  constructor(
    private readonly root: string,
    private readonly clock: Clock = systemClock,
  ) {}

  private pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error('not a sha256 digest');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  private get incoming(): string {
    return join(this.root, 'incoming');
  }

  private tmpPath(suffix: string): string {
    return join(this.incoming, `${randomBytes(12).toString('hex')}.${suffix}`);
  }

  /**
   * Stores the bytes of `source`, which must be exactly `size` bytes, and
   * returns their sha256. Another length throws BlobSizeError (as soon as an
   * excess byte arrives: the rest is not read); a stream that fails throws
   * BlobInterruptedError; either way nothing is stored. The source is never
   * destroyed: the caller still answers on its connection.
   */
  async putStream(source: Readable, size: number): Promise<{ sha256: string; size: number }> {
    const staged = await this.stage(source, size);
    try {
      this.promote(staged);
      return { sha256: staged.sha256, size: staged.size };
    } finally {
      await this.discard(staged);
    }
  }

  /**
   * Writes and hashes the bytes of `source` (exactly `size` of them, as
   * putStream) to a private file outside the store: nothing reads it, lists
   * it or collects it until `promote` puts it in place; `discard` removes it.
   * Used by batches, whose bytes may only appear in the store if the batch is
   * applied.
   */
  async stage(source: Readable, size: number): Promise<StagedBlob> {
    await mkdir(this.incoming, { recursive: true });
    const tmp = this.tmpPath('tmp');
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
      return { sha256: hash.digest('hex'), size, ref: tmp };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * Puts a staged blob in place, stamped now. Synchronous on purpose: a batch
   * calls it inside its document change, after the batch was found valid and
   * before that change is committed, so the bytes are in place before any
   * document names them and never appear for a refused batch. Renaming over a
   * stored copy replaces identical bytes atomically (readers keep theirs).
   */
  promote(staged: StagedBlob): void {
    const path = this.pathOf(staged.sha256);
    mkdirSync(dirname(path), { recursive: true });
    const now = this.clock.now();
    utimesSync(staged.ref, now, now);
    renameSync(staged.ref, path);
  }

  /** Removes a staged blob that was not promoted (a no-op once it was). */
  async discard(staged: StagedBlob): Promise<void> {
    await rm(staged.ref, { force: true });
  }

  /** Every stored blob with the time it was last put in place. */
  async *stored(): AsyncGenerator<{ sha256: string; storedAt: Date }> {
    for (const a of await subdirs(this.root)) {
      for (const b of await subdirs(join(this.root, a))) {
        const dir = join(this.root, a, b);
        for (const name of await readdir(dir).catch(() => [] as string[])) {
          if (!SHA256.test(name) || !name.startsWith(a + b)) continue;
          const info = await stat(join(dir, name)).catch(() => undefined);
          if (info?.isFile()) yield { sha256: name, storedAt: info.mtime };
        }
      }
    }
  }

  /**
   * Deletes the blob `sha256` if it was last put in place before `before`;
   * false when it was absent or newer. It is moved aside first and its time
   * checked on the moved copy: a writer that renamed a fresh copy over it in
   * the meantime (an upload or batch using the same bytes) made that copy the
   * one moved aside, and it is put back, so such a race never loses bytes.
   */
  async removeIfStoredBefore(sha256: string, before: Date): Promise<boolean> {
    const path = this.pathOf(sha256);
    await mkdir(this.incoming, { recursive: true });
    const aside = this.tmpPath('collect');
    try {
      await rename(path, aside);
    } catch {
      return false;
    }
    const info = await stat(aside);
    if (info.mtime.getTime() >= before.getTime()) {
      await rename(aside, path);
      return false;
    }
    await rm(aside, { force: true });
    return true;
  }

  /** Removes partial uploads and staged bytes nothing has written to for `idleMs` (left by a crash). */
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
  async read(sha256: string): Promise<Readable> {
    return createReadStream(this.pathOf(sha256));
  }

  /** The folder is there and writable (a lost disk or mount shows here). */
  async check(): Promise<void> {
    try {
      await mkdir(this.incoming, { recursive: true });
      await access(this.incoming, constants.W_OK);
    } catch (err) {
      throw new BlobStoreUnavailableError(err);
    }
  }

  async close(): Promise<void> {}
}

/** The two-hex-digit fan-out folders of `dir` (never `incoming/`). */
async function subdirs(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => /^[0-9a-f]{2}$/.test(n));
}
