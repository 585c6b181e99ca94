import type { OutboundOptions } from '../../outbound';

/** A username and password (or token) for HTTP basic auth. */
export interface GitCredentials {
  username: string;
  password: string;
}

/** Where a repository is and how to reach it. */
export interface RepoAccess {
  /** https://host/owner/repo.git (credentials NOT embedded: see `credentials`). */
  url: string;
  /** The branch, in full: 'refs/heads/main'. */
  ref: string;
  credentials?: GitCredentials;
  /** This repository's cache folder (see `cacheDirFor`). */
  cacheDir: string;
  /**
   * The address policy (allow-list…) from the server's configuration. `maxBytes` bounds what one
   * operation downloads in all (default 200 MiB: pass FOLIO_GIT_MAX_BYTES); `totalTimeoutMs` bounds
   * each request (default 5 minutes).
   */
  outbound: OutboundOptions;
  /** Aborting it ends the operation with a GitTransportError coded 'aborted'. */
  signal?: AbortSignal;
}

/** A branch's files: path (posix, relative to the repository root) → bytes. */
export interface BranchFiles {
  /** The head commit of the branch, or null when the branch does not exist or the repository is empty. */
  commit: string | null;
  files: Map<string, Uint8Array>;
}

/** One commit's worth of changes over the commit the caller read. */
export interface ChangeSet {
  /** The commit the changes apply to (the one the caller read); null for a new branch. */
  parent: string | null;
  /** path → bytes to write, or null to delete the file there. */
  files: Map<string, Uint8Array | null>;
  message: string;
  author: { name: string; email: string };
  /** Push even when the branch moved since `parent` (its newer commits are dropped from it). */
  force?: boolean;
}

/**
 * What a push did: the new commit (or `parent` when there was nothing to change, which is null
 * only when `parent` was), or a refusal because the branch is no longer at `parent`: `remote` is
 * where it is now (forty zeros when it was deleted).
 */
export type PushOutcome = { commit: string | null } | { refused: 'diverged'; remote: string };

/** The id Git uses for "no commit" (a missing branch). */
export const ZERO_COMMIT = '0000000000000000000000000000000000000000';
