import { GitTransportError } from './errors';

/**
 * Checks a path of a change set before anything is written. Besides what Git itself cannot hold
 * (empty segments, NUL), it refuses what would harm whoever checks the repository out: `..`
 * escapes, and `.git` in any spelling Git, Windows (`GIT~1`, trailing dots and spaces) or macOS
 * (case-insensitive) treats as the repository's own folder (CVE-2014-9390).
 */
export function checkChangePath(path: string): void {
  const reason = whyInvalid(path);
  if (reason)
    throw new GitTransportError('invalid-path', `"${path.slice(0, 200)}" cannot be written to a repository: ${reason}`);
}

function whyInvalid(path: string): string | undefined {
  if (path === '') return 'it is empty';
  if (Buffer.byteLength(path) > 4096) return 'it is longer than 4096 bytes';
  if (path.startsWith('/')) return 'it must be relative to the repository root';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'it holds a control character';
  if (path.includes('\\')) return 'it holds a backslash';
  for (const segment of path.split('/')) {
    if (segment === '') return 'it has an empty folder name (a doubled or trailing "/")';
    if (segment === '.' || segment === '..') return `it has a "${segment}" segment`;
    const bare = segment.replace(/[. ]+$/, '').toLowerCase();
    if (bare === '.git' || bare === 'git~1') return 'it names the repository\'s own ".git" folder';
  }
  return undefined;
}
