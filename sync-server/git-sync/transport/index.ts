/**
 * The Git transport of Git sync: read a branch, commit and push changes, over smart HTTP(S) with
 * isomorphic-git, every request through the outbound fetcher (address policy, limits). It knows
 * files and commits only; the repository layout (files ↔ pages) is the codec's.
 */
export { readBranch } from './read-branch';
export { commitAndPush } from './commit-push';
export { splitCredentials } from './credentials';
export { cacheDirFor, GIT_CACHE_FOLDER } from './cache';
export { DEFAULT_GIT_MAX_BYTES } from './connection';
export { GitTransportError, type GitTransportErrorCode } from './errors';
export {
  ZERO_COMMIT,
  type BranchFiles,
  type ChangeSet,
  type GitCredentials,
  type PushOutcome,
  type RepoAccess,
} from './types';
