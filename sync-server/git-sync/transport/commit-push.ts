import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { commit as gitCommit, deleteRef, Errors, push, readCommit, writeRef, writeTree } from 'isomorphic-git';
import { openCache, withCacheLock } from './cache';
import { connect, guarded, type Connection } from './connection';
import { GitTransportError } from './errors';
import { checkChangePath } from './paths';
import { fetchHead, hasCommit, rememberHead } from './read-branch';
import { remoteHead } from './remote-refs';
import { writeChangedTree } from './tree-write';
import { ZERO_COMMIT, type ChangeSet, type PushOutcome, type RepoAccess } from './types';

/** Where the commit being pushed is held locally: one ref per push, so concurrent pushes never share one. */
const PUSH_REF_PREFIX = 'refs/folio/push/';

/** A name or email as Git's ident line can hold it: `<`, `>` and line breaks would forge the commit's headers. */
function identPart(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[<>\u0000-\u001f]/g, '').trim();
}

/**
 * Makes sure `parent` is in the cache. Normally the read that gave it to the caller left it there;
 * otherwise (another process's cache, a wiped data folder) the branch is fetched, which brings it
 * when the branch is still there. Undefined when it is there; otherwise the branch's head now.
 */
async function ensureParent(conn: Connection, ref: string, parent: string): Promise<string | null | undefined> {
  if (await hasCommit(conn, parent)) return undefined;
  const head = await remoteHead(conn, ref);
  if (head === parent) await fetchHead(conn, ref);
  return (await hasCommit(conn, parent)) ? undefined : head;
}

/**
 * A push the remote turned down because the branch moved: before isomorphic-git sent anything
 * (our pre-push check, or its fast-forward check), or at the remote, which updates a ref only from
 * the old id the push names (so a writer pushing in between is never overwritten).
 */
async function divergence(
  conn: Connection,
  access: RepoAccess,
  change: ChangeSet,
  err: unknown,
  seen: string | undefined,
): Promise<PushOutcome | undefined> {
  if (err instanceof Errors.UserCanceledError && seen !== undefined) return { refused: 'diverged', remote: seen };
  if (change.force) return undefined;
  if (!(err instanceof Errors.PushRejectedError || err instanceof Errors.GitPushError)) return undefined;
  const now = (await remoteHead(conn, access.ref, true)) ?? ZERO_COMMIT;
  return now === (change.parent ?? ZERO_COMMIT) ? undefined : { refused: 'diverged', remote: now };
}

/**
 * One commit on `ref` with these changes (bytes = write, null = delete) over `parent`, pushed.
 * Without `force`, a branch that moved since `parent` is refused and nothing is pushed:
 * `{ refused: 'diverged', remote }`. A change set that changes nothing (empty, or the same bytes)
 * makes no commit and returns `{ commit: parent }`.
 */
export async function commitAndPush(access: RepoAccess, change: ChangeSet): Promise<PushOutcome> {
  for (const path of change.files.keys()) checkChangePath(path);
  if (change.files.size === 0) return { commit: change.parent };
  const conn = connect(access);
  return guarded(conn, () =>
    withCacheLock(conn.gitdir, async () => {
      const { gitdir, cache } = conn;
      const { parent } = change;
      conn.checkpoint();
      await openCache(gitdir);
      if (parent) {
        const moved = await ensureParent(conn, access.ref, parent);
        if (moved !== undefined) {
          if (!change.force) return { refused: 'diverged', remote: moved ?? ZERO_COMMIT };
          throw new GitTransportError(
            'not-found',
            `the commit ${parent} is no longer in ${conn.url}: read the branch again before pushing`,
          );
        }
      }
      conn.checkpoint();
      const base = parent ? (await readCommit({ fs, gitdir, oid: parent, cache })).commit.tree : null;
      const tree = await writeChangedTree({ gitdir, cache, base, changes: change.files });
      if (tree === base) return { commit: parent };
      const signature = {
        name: identPart(change.author.name),
        email: identPart(change.author.email),
        timestamp: Math.floor(Date.now() / 1000),
        timezoneOffset: 0,
      };
      const commit = await gitCommit({
        fs,
        gitdir,
        cache,
        message: change.message.endsWith('\n') ? change.message : `${change.message}\n`,
        author: signature,
        committer: signature,
        // Every file deleted: Git's empty tree, a commit a branch can hold.
        tree: tree ?? (await writeTree({ fs, gitdir, tree: [] })),
        parent: parent ? [parent] : [],
        noUpdateBranch: true,
      });
      conn.checkpoint();
      const pushRef = `${PUSH_REF_PREFIX}${randomUUID()}`;
      await writeRef({ fs, gitdir, ref: pushRef, value: commit, force: true });
      let seen: string | undefined;
      try {
        await push({
          fs,
          http: conn.http,
          gitdir,
          url: conn.url,
          ref: pushRef,
          remoteRef: access.ref,
          force: change.force === true,
          headers: conn.headers(),
          cache,
          // The last look before the pack goes: the branch must still be where the caller read it.
          onPrePush: ({ remoteRef }) => {
            seen = remoteRef.oid;
            return change.force === true || remoteRef.oid === (parent ?? ZERO_COMMIT);
          },
        });
      } catch (err) {
        const refused = await divergence(conn, access, change, err, seen);
        if (refused) return refused;
        throw err instanceof Errors.GitPushError
          ? new GitTransportError('protocol', `${conn.url} refused the push: ${err.message}`)
          : err;
      } finally {
        await deleteRef({ fs, gitdir, ref: pushRef }).catch(() => undefined);
      }
      await rememberHead(conn, access.ref, commit);
      return { commit };
    }),
  );
}
