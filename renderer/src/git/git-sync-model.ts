import { relativeTime } from '../history/time';
import type { GitDirection, GitOperation, GitOperationBody, GitSettings, GitSyncInfo } from './git-api';

/**
 * What the Git sync panel says and sends, as pure functions (tested without a browser): the form's
 * fields turned into GitBook's operation body (credentials embedded in the URL, as GitBook's API
 * takes them), a branch and its ref, and the wording of an operation and of the automatic sync.
 */

/** What the panel's form holds. */
export interface RepositoryForm {
  url: string;
  branch: string;
  folder: string;
  username: string;
  token: string;
  commitMessage: string;
  force: boolean;
}

export const DEFAULT_BRANCH = 'main';
export const DEFAULT_COMMIT_MESSAGE = 'Update documentation from Folio';
/** Sent as the username when only a token is given (GitHub's name for it; GitLab and Gitea take any). */
export const TOKEN_USERNAME = 'x-access-token';
/** The bounds of "check the repository every N minutes" (the server's). */
export const POLL_MIN = 5;
export const POLL_MAX = 1440;
export const DEFAULT_POLL_MINUTES = 15;

/** The form of a space, empty or filled from its Git sync (never with credentials: the server has none to give). */
export function formFrom(info: GitSyncInfo | null | undefined): RepositoryForm {
  return {
    url: info?.url ?? '',
    branch: branchOf(info?.ref),
    folder: info?.projectDirectory ?? '',
    username: '',
    token: '',
    commitMessage: DEFAULT_COMMIT_MESSAGE,
    force: false,
  };
}

/** "refs/heads/main" → "main" (another kind of ref is shown as it is). */
export function branchOf(ref: string | undefined): string {
  if (!ref) return DEFAULT_BRANCH;
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/** A branch name as typed → its ref ("main" → "refs/heads/main"), or why it cannot be one. */
export function refOf(branch: string): { ref: string } | { error: string } {
  const name = branch.trim().replace(/^refs\/heads\//, '') || DEFAULT_BRANCH;
  // eslint-disable-next-line no-control-regex -- control characters are what a branch name may not hold
  if (/[\s~^:?*[\\\x00-\x1f\x7f]|\.\.|\/\/|^[./]|[./]$|@\{/.test(name))
    return { error: `“${name}” is not a branch name Git allows.` };
  return { ref: `refs/heads/${name}` };
}

/** The folder as the server takes it ('' for the whole repository), or why it cannot be one. */
export function folderOf(folder: string): { folder: string } | { error: string } {
  const clean = folder
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\.?\/+|\/+$/g, '');
  if (clean === '' || clean === '.') return { folder: '' };
  if (clean.split('/').some((part) => part === '..' || part === '.' || part === ''))
    return { error: 'The folder must be a folder of the repository, as docs or guides/api (no “..”).' };
  return { folder: clean };
}

/**
 * The repository URL to send: the URL typed (credentials pasted into it are taken out of it), with
 * the username and token of the form embedded as `user:token@` when a token is given. Without a
 * token nothing is embedded, so the server keeps the credentials it has.
 */
export function requestUrl(
  form: Pick<RepositoryForm, 'url' | 'username' | 'token'>,
  connected: boolean,
): { url: string; plainUrl: string; withCredentials: boolean } | { error: string } {
  const typed = form.url.trim();
  if (!typed) return { error: 'Enter the address of the repository.' };
  if (/^[\w.-]+@[\w.-]+:/.test(typed) || typed.startsWith('ssh://'))
    return { error: 'Use the repository’s https:// address: Folio syncs over HTTPS, not SSH.' };
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    return { error: 'Enter the repository’s full address, as https://github.com/acme/docs.git.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { error: 'Use the repository’s https:// address: Folio syncs over HTTPS.' };
  if (url.search || url.hash) return { error: 'The repository’s address has no ? or # part.' };
  let username = form.username.trim();
  let token = form.token.trim();
  if (!username && !token && (url.username || url.password)) {
    username = safeDecode(url.username);
    token = safeDecode(url.password);
    // A token pasted alone (https://TOKEN@host/…) is the username part: hosts take it that way.
    if (!token) [username, token] = [TOKEN_USERNAME, username];
  }
  url.username = '';
  url.password = '';
  if (username && !token)
    return {
      error: connected
        ? 'Enter the token (or password) for this username, or leave both empty to keep the stored credentials.'
        : 'Enter the token (or password) for this username, or leave both empty for a public repository.',
    };
  const plainUrl = url.toString();
  if (!token) return { url: plainUrl, plainUrl, withCredentials: false };
  // Percent-encoded first: the URL setters leave "%" and some other characters of a token as they are.
  url.username = encodeURIComponent(username || TOKEN_USERNAME);
  url.password = encodeURIComponent(token);
  return { url: url.toString(), plainUrl, withCredentials: true };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The body of an import or an export from the form (and the URL to show after it, without
 * credentials), or the first thing to correct.
 */
export function operationBody(
  form: RepositoryForm,
  direction: GitDirection,
  connected: boolean,
): { body: GitOperationBody; plainUrl: string } | { error: string } {
  const url = requestUrl(form, connected);
  if ('error' in url) return url;
  const ref = refOf(form.branch);
  if ('error' in ref) return ref;
  const folder = folderOf(form.folder);
  if ('error' in folder) return folder;
  const body: GitOperationBody = { url: url.url, ref: ref.ref };
  if (folder.folder) body.repoProjectDirectory = folder.folder;
  if (direction === 'export') {
    const message = form.commitMessage.trim();
    if (!message) return { error: 'Enter a commit message for the export.' };
    body.commitMessage = message;
  }
  if (form.force) body.force = true;
  return { body, plainUrl: url.plainUrl };
}

/** What a confirmation of a forced operation says (nothing is asked for an ordinary one). */
export function forceWarning(direction: GitDirection): string {
  return direction === 'export'
    ? 'Force the export? Commits on the branch that this space has not imported are replaced by the space’s pages, and lost from the branch.'
    : 'Force the import? The space’s pages are replaced by the repository’s; edits made only in the space are lost.';
}

export type OperationTone = 'running' | 'success' | 'failure';

/** "Exporting to Git…", "Export succeeded", "Import failed". */
export function operationTitle(op: GitOperation): string {
  const exporting = op.direction === 'export';
  if (op.state === 'running') return exporting ? 'Exporting to Git…' : 'Importing from Git…';
  if (op.state === 'success') return exporting ? 'Export succeeded' : 'Import succeeded';
  return exporting ? 'Export failed' : 'Import failed';
}

/** When it happened: "started just now" while it runs, then when it ended. */
export function operationWhen(op: GitOperation, now: number = Date.now()): string {
  if (op.state === 'running') return `started ${relativeTime(op.startedAt, now)}`;
  return relativeTime(op.endedAt ?? op.startedAt, now);
}

/** "github.com/acme/docs": where the repository is, without credentials. */
export function repositoryLabel(info: GitSyncInfo): string {
  if (info.host && info.repoName) return `${info.host}/${info.repoName}`;
  return info.url ?? info.repoName ?? 'Git repository';
}

/** A commit id as Git shortens it. */
export function shortCommit(commit: string | undefined): string {
  return commit ? commit.slice(0, 7) : '';
}

/** "Check every N minutes" as typed → minutes, or why not. */
export function parsePollMinutes(text: string): { minutes: number } | { error: string } {
  const n = Number(text.trim());
  if (!text.trim() || !Number.isInteger(n) || n < POLL_MIN || n > POLL_MAX)
    return { error: `Enter a whole number of minutes from ${POLL_MIN} to ${POLL_MAX} (a day).` };
  return { minutes: n };
}

/** The automatic sync in words, for those who may only read it. */
export function automaticSummary(settings: GitSettings): string[] {
  const lines: string[] = [];
  if (settings.exportOnMerge) lines.push('Exports after every merge.');
  if (settings.importOnPush) lines.push('Imports when the repository announces a push.');
  if (settings.pollMinutes) lines.push(`Checks the repository every ${plural(settings.pollMinutes, 'minute')}.`);
  return lines.length ? lines : ['Off: the space is synced only when someone asks.'];
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
