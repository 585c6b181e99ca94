import fs from 'node:fs';
import { readBlob, readTree } from 'isomorphic-git';

/**
 * Every file of a commit's tree: path → bytes. Only regular files (modes 100644 and 100755):
 * symbolic links and submodules have no bytes of their own to read, and a commit that changes
 * other files keeps them as they are (tree-write.ts).
 */
export async function readTreeFiles(options: {
  gitdir: string;
  commit: string;
  cache: object;
  /** Most bytes the files may hold in all: a small pack can inflate to far more. */
  maxBytes: number;
  /** Called between files: throws to stop (an aborted signal). */
  checkpoint: () => void;
  onTooLarge: () => Error;
}): Promise<Map<string, Uint8Array>> {
  const { gitdir, cache } = options;
  const files = new Map<string, Uint8Array>();
  let total = 0;
  const walk = async (oid: string, prefix: string): Promise<void> => {
    const { tree } = await readTree({ fs, gitdir, oid, cache });
    for (const entry of tree) {
      const path = prefix + entry.path;
      if (entry.type === 'tree') await walk(entry.oid, `${path}/`);
      else if (entry.type === 'blob' && (entry.mode === '100644' || entry.mode === '100755')) {
        options.checkpoint();
        const { blob } = await readBlob({ fs, gitdir, oid: entry.oid, cache });
        total += blob.length;
        if (total > options.maxBytes) throw options.onTooLarge();
        files.set(path, blob);
      }
    }
  };
  await walk(options.commit, '');
  return files;
}
