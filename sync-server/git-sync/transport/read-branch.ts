import fs from 'node:fs';
import { fetch as gitFetch, readCommit, writeRef } from 'isomorphic-git';
import { openCache, withCacheLock } from './cache';
import { connect, guarded, type Connection } from './connection';
import { tooLarge } from './errors';
import { remoteHead } from './remote-refs';
import { readTreeFiles } from './tree-read';
import type { BranchFiles, RepoAccess } from './types';

/** Whether the cache holds `oid` as a commit (then it holds its tree too: both came in one pack, or were written here). */
export async function hasCommit(conn: Connection, oid: string): Promise<boolean> {
  try {
    await readCommit({ fs, gitdir: conn.gitdir, oid, cache: conn.cache });
    return true;
  } catch {
    return false;
  }
}

/**
 * Downloads the head of `ref` into the cache: shallow (depth 1, that branch only, no tags), with
 * what the cache last saw of the branch offered as "have", so only new objects come.
 */
export async function fetchHead(conn: Connection, ref: string): Promise<string | null> {
  const result = await gitFetch({
    fs,
    http: conn.http,
    gitdir: conn.gitdir,
    url: conn.url,
    ref,
    remoteRef: ref,
    singleBranch: true,
    depth: 1,
    tags: false,
    headers: conn.headers(),
    cache: conn.cache,
  });
  return result.fetchHead;
}

/** Records where the branch was last seen: the next fetch offers it as "have". */
export async function rememberHead(conn: Connection, ref: string, commit: string): Promise<void> {
  await writeRef({ fs, gitdir: conn.gitdir, ref, value: commit, force: true });
}

/**
 * The tree of `ref`'s head commit: every regular file's path (posix, relative to the repository
 * root) and bytes; commit null when the branch does not exist or the repository is empty.
 * An unchanged branch is read from the cache after one ref listing.
 */
export async function readBranch(access: RepoAccess): Promise<BranchFiles> {
  const conn = connect(access);
  return guarded(conn, () =>
    withCacheLock(conn.gitdir, async () => {
      conn.checkpoint();
      await openCache(conn.gitdir);
      const head = await remoteHead(conn, access.ref);
      if (!head) return { commit: null, files: new Map() };
      conn.checkpoint();
      let commit = head;
      if (!(await hasCommit(conn, commit))) {
        // The fetch lists the refs again: if the branch moved meanwhile, the newer head is the one read.
        const fetched = await fetchHead(conn, access.ref);
        if (!fetched) return { commit: null, files: new Map() };
        commit = fetched;
      }
      conn.checkpoint();
      const files = await readTreeFiles({
        gitdir: conn.gitdir,
        commit,
        cache: conn.cache,
        maxBytes: conn.maxBytes,
        checkpoint: conn.checkpoint,
        onTooLarge: () => tooLarge(conn.failure),
      });
      await rememberHead(conn, access.ref, commit);
      return { commit, files };
    }),
  );
}
