import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { splitCredentials } from './credentials';

/** Where a repository's cache lives (apart from cache.ts, which loads isomorphic-git: the API needs only the path). */

export const GIT_CACHE_FOLDER = 'git-cache';

/** `<dataDir>/git-cache/<key>` for a repository; the key hashes the URL (credentials left out), so it names nothing. */
export function cacheDirFor(dataDir: string, url: string): string {
  const parsed = new URL(splitCredentials(url).url);
  parsed.hash = '';
  const key = createHash('sha256').update(parsed.toString().replace(/\/+$/, '')).digest('hex').slice(0, 32);
  return join(dataDir, GIT_CACHE_FOLDER, key);
}
