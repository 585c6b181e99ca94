import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Content-addressed file bytes in `<dataDir>/blobs/ab/cd/<sha256>`. Writing
 * the same bytes twice stores them once; a blob is written to a temporary
 * name and renamed into place, so a crash never leaves a partial blob under
 * its final name.
 */
export class BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error('not a sha256 digest');
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  /** Stores bytes and returns their sha256 and size. */
  async put(bytes: Uint8Array): Promise<{ sha256: string; size: number }> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const path = this.pathOf(sha256);
    if (!(await this.has(sha256))) {
      await mkdir(join(path, '..'), { recursive: true });
      const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, bytes);
        await rename(tmp, path);
      } finally {
        await rm(tmp, { force: true });
      }
    }
    return { sha256, size: bytes.byteLength };
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
