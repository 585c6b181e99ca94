import { describe, expect, it } from 'vitest';
import type { GitOperation } from '../../renderer/src/git/git-api';
import {
  automaticSummary,
  branchOf,
  DEFAULT_COMMIT_MESSAGE,
  folderOf,
  formFrom,
  operationBody,
  operationTitle,
  operationWhen,
  parsePollMinutes,
  refOf,
  repositoryLabel,
  requestUrl,
  shortCommit,
  type RepositoryForm,
} from '../../renderer/src/git/git-sync-model';

/** What the Git sync panel sends and says (renderer/src/git/git-sync-model.ts). */

const form = (fields: Partial<RepositoryForm>): RepositoryForm => ({
  ...formFrom(null),
  url: 'https://git.example.com/acme/docs.git',
  ...fields,
});

describe('the Git sync panel’s form', () => {
  it('starts empty on main, or from the space’s sync (never with credentials)', () => {
    expect(formFrom(null)).toEqual({
      url: '',
      branch: 'main',
      folder: '',
      username: '',
      token: '',
      commitMessage: DEFAULT_COMMIT_MESSAGE,
      force: false,
    });
    expect(
      formFrom({ url: 'https://h/r.git', ref: 'refs/heads/docs', projectDirectory: 'site/docs', commit: 'abc' }),
    ).toMatchObject({ url: 'https://h/r.git', branch: 'docs', folder: 'site/docs', username: '', token: '' });
  });

  it('turns a branch into its ref and back, and refuses what Git does not allow', () => {
    expect(refOf('main')).toEqual({ ref: 'refs/heads/main' });
    expect(refOf('  ')).toEqual({ ref: 'refs/heads/main' });
    expect(refOf('refs/heads/release/2.x')).toEqual({ ref: 'refs/heads/release/2.x' });
    for (const bad of ['a b', 'a..b', 'x~1', 'a:b', '/lead', 'trail/', 'dot.', 'a//b', 'x@{1}'])
      expect(refOf(bad)).toHaveProperty('error');
    expect(branchOf('refs/heads/release/2.x')).toBe('release/2.x');
    expect(branchOf(undefined)).toBe('main');
    expect(branchOf('refs/tags/v1')).toBe('refs/tags/v1');
  });

  it('takes a folder as a relative path, and refuses one that leaves the repository', () => {
    expect(folderOf('')).toEqual({ folder: '' });
    expect(folderOf(' ./docs/ ')).toEqual({ folder: 'docs' });
    expect(folderOf('/guides\\api/')).toEqual({ folder: 'guides/api' });
    expect(folderOf('../secrets')).toHaveProperty('error');
    expect(folderOf('a//b')).toHaveProperty('error');
  });

  it('embeds the username and token in the URL, encoded, and nothing without a token', () => {
    expect(requestUrl(form({ username: 'writer', token: 'p@ss:w/rd%' }), false)).toEqual({
      url: 'https://writer:p%40ss%3Aw%2Frd%25@git.example.com/acme/docs.git',
      plainUrl: 'https://git.example.com/acme/docs.git',
      withCredentials: true,
    });
    // A token alone goes with GitHub's username for tokens.
    expect(requestUrl(form({ token: 'ghp_123' }), false)).toMatchObject({
      url: 'https://x-access-token:ghp_123@git.example.com/acme/docs.git',
    });
    // Nothing typed: the server keeps what it stored.
    expect(requestUrl(form({}), true)).toEqual({
      url: 'https://git.example.com/acme/docs.git',
      plainUrl: 'https://git.example.com/acme/docs.git',
      withCredentials: false,
    });
  });

  it('takes credentials pasted into the URL out of it, the fields winning over them', () => {
    const pasted = 'https://bob:s3cret@git.example.com/acme/docs.git';
    expect(requestUrl(form({ url: pasted }), false)).toEqual({
      url: pasted,
      plainUrl: 'https://git.example.com/acme/docs.git',
      withCredentials: true,
    });
    expect(requestUrl(form({ url: 'https://TOKEN123@git.example.com/r.git' }), false)).toMatchObject({
      url: 'https://x-access-token:TOKEN123@git.example.com/r.git',
      plainUrl: 'https://git.example.com/r.git',
    });
    expect(requestUrl(form({ url: pasted, username: 'ann', token: 'other' }), true)).toMatchObject({
      url: 'https://ann:other@git.example.com/acme/docs.git',
    });
  });

  it('says what to correct: no URL, SSH, another scheme, a username without a token', () => {
    const error = (fields: Partial<RepositoryForm>, connected = false) =>
      (requestUrl(form(fields), connected) as { error?: string }).error;
    expect(error({ url: ' ' })).toMatch(/Enter the address/);
    expect(error({ url: 'git@github.com:acme/docs.git' })).toMatch(/not SSH/);
    expect(error({ url: 'ssh://git@github.com/acme/docs.git' })).toMatch(/not SSH/);
    expect(error({ url: 'ftp://example.com/r.git' })).toMatch(/HTTPS/);
    expect(error({ url: 'github.com/acme/docs' })).toMatch(/full address/);
    expect(error({ url: 'https://h/r.git?x=1' })).toMatch(/no \? or #/);
    expect(error({ username: 'bob' })).toMatch(/public repository/);
    expect(error({ username: 'bob' }, true)).toMatch(/keep the stored credentials/);
  });

  it('builds GitBook’s import and export bodies', () => {
    expect(operationBody(form({ folder: 'docs', token: 't0ken' }), 'import', false)).toEqual({
      body: {
        url: 'https://x-access-token:t0ken@git.example.com/acme/docs.git',
        ref: 'refs/heads/main',
        repoProjectDirectory: 'docs',
      },
      plainUrl: 'https://git.example.com/acme/docs.git',
    });
    expect(operationBody(form({ branch: 'live', commitMessage: ' Ship it ', force: true }), 'export', true)).toEqual({
      body: {
        url: 'https://git.example.com/acme/docs.git',
        ref: 'refs/heads/live',
        commitMessage: 'Ship it',
        force: true,
      },
      plainUrl: 'https://git.example.com/acme/docs.git',
    });
    expect(operationBody(form({ commitMessage: '  ' }), 'export', true)).toEqual({
      error: 'Enter a commit message for the export.',
    });
    // An import sends no commit message, whatever the field holds.
    expect(operationBody(form({ commitMessage: '' }), 'import', true)).toHaveProperty('body');
  });
});

describe('the Git sync panel’s words', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');
  const op = (fields: Partial<GitOperation>): GitOperation => ({
    state: 'success',
    direction: 'export',
    startedAt: '2025-06-01T11:50:00Z',
    endedAt: '2025-06-01T11:55:00Z',
    ...fields,
  });

  it('names an operation and says when it happened', () => {
    expect(operationTitle(op({ state: 'running' }))).toBe('Exporting to Git…');
    expect(operationTitle(op({ state: 'running', direction: 'import' }))).toBe('Importing from Git…');
    expect(operationTitle(op({}))).toBe('Export succeeded');
    expect(operationTitle(op({ direction: 'import' }))).toBe('Import succeeded');
    expect(operationTitle(op({ state: 'failure' }))).toBe('Export failed');
    expect(operationTitle(op({ state: 'failure', direction: 'import' }))).toBe('Import failed');
    expect(operationWhen(op({}), now)).toBe('5 min ago');
    expect(operationWhen(op({ state: 'running', endedAt: undefined }), now)).toBe('started 10 min ago');
    expect(operationWhen(op({ endedAt: undefined }), now)).toBe('10 min ago');
  });

  it('names the repository without credentials, and shortens a commit', () => {
    expect(
      repositoryLabel({ host: 'github.com', repoName: 'acme/docs', url: 'https://github.com/acme/docs.git' }),
    ).toBe('github.com/acme/docs');
    expect(repositoryLabel({ url: 'https://h/r.git' })).toBe('https://h/r.git');
    expect(shortCommit('0123456789abcdef')).toBe('0123456');
    expect(shortCommit(undefined)).toBe('');
  });

  it('reads "every N minutes" within the server’s bounds', () => {
    expect(parsePollMinutes('15')).toEqual({ minutes: 15 });
    expect(parsePollMinutes(' 5 ')).toEqual({ minutes: 5 });
    expect(parsePollMinutes('1440')).toEqual({ minutes: 1440 });
    for (const bad of ['', '4', '1441', '7.5', 'ten']) expect(parsePollMinutes(bad)).toHaveProperty('error');
  });

  it('says the automatic sync in words for a reader', () => {
    const base = { exportOnMerge: false, importOnPush: false, pollMinutes: null, lastPolledAt: null };
    expect(automaticSummary(base)).toEqual(['Off: the space is synced only when someone asks.']);
    expect(automaticSummary({ ...base, exportOnMerge: true, importOnPush: true, pollMinutes: 30 })).toEqual([
      'Exports after every merge.',
      'Imports when the repository announces a push.',
      'Checks the repository every 30 minutes.',
    ]);
    expect(automaticSummary({ ...base, pollMinutes: 1 })).toEqual(['Checks the repository every 1 minute.']);
  });
});
