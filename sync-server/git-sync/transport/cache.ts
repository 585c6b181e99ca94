import fs from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { init, setConfig } from 'isomorphic-git';

/**
 * The local copy of a repository: a bare Git folder under `<dataDir>/git-cache/`, one per
 * repository URL. It keeps what earlier reads and pushes fetched, so re-reading an unchanged
 * branch downloads only the ref listing, and a push sends only the new objects.
 */

export { cacheDirFor, GIT_CACHE_FOLDER } from './cache-dir';

/** Makes the cache folder a bare repository (once); 0700: it holds the repository's content. */
export async function openCache(gitdir: string): Promise<void> {
  await mkdir(gitdir, { recursive: true, mode: 0o700 });
  await init({ fs, gitdir, dir: gitdir, bare: true, defaultBranch: 'main' });
  // A fetch records the remote's heads under refs/remotes/origin/ and needs the refspec saying so.
  // The URL is not stored: each operation passes it (and its credentials never reach this file).
  await setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' });
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` after every earlier task of this process on the same cache: isomorphic-git
 * rewrites refs and the shallow list without locks of its own. (Across processes sharing a data
 * folder, the job runner's per-space lock is what orders the operations of one repository.)
 */
export async function withCacheLock<T>(gitdir: string, task: () => Promise<T>): Promise<T> {
  const key = resolve(gitdir);
  const before = queues.get(key) ?? Promise.resolve();
  const run = before.then(task, task);
  const settled = run.catch(() => undefined);
  queues.set(key, settled);
  try {
    return await run;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
