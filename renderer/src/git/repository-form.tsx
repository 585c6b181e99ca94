import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, type ApiClient } from '../api/client';
import { confirmDialog } from '../ui/kit/dialog';
import { Field } from '../ui/kit/field';
import { Icon } from '../ui/kit/icon';
import { startGitOperation, type GitDirection, type GitSyncInfo } from './git-api';
import { forceWarning, formFrom, operationBody, type RepositoryForm } from './git-sync-model';
import { gitStores } from './git-stores';

/**
 * The repository and the two operations: its URL, branch and folder (filled from the space's sync),
 * credentials (sent once, embedded in the URL as GitBook's API takes them, then cleared from the
 * form: the server keeps them sealed and never gives them back), a commit message for exports and
 * "force" behind a warning and a confirmation. Import and export are queued by the server; the
 * panel's status above follows the operation. A refusal shows in the server's words.
 */
export function RepositoryFormView(props: { api: ApiClient; spaceId: string; info: GitSyncInfo | null }) {
  const { api, spaceId, info } = props;
  const connected = info !== null;
  const [form, setForm] = useState<RepositoryForm>(() => formFrom(info));
  const [pending, setPending] = useState<GitDirection>();
  const [error, setError] = useState('');
  const running = info?.operation?.state === 'running';

  // Disconnected (here or in another window): the form starts again, empty. (Connecting keeps what was
  // typed: the server's copy is the same, and a failed first operation is corrected in place.) Only on
  // the change: a form opened disconnected is empty already, and what is typed into it stays.
  const wasConnected = useRef(connected);
  useEffect(() => {
    const disconnected = wasConnected.current && !connected;
    wasConnected.current = connected;
    if (!disconnected) return;
    setForm((old) => ({ ...formFrom(null), commitMessage: old.commitMessage }));
    setError('');
  }, [connected]);

  const set = (patch: Partial<RepositoryForm>) => {
    setForm((old) => ({ ...old, ...patch }));
    if (error) setError('');
  };

  const start = async (direction: GitDirection) => {
    setError('');
    const built = operationBody(form, direction, connected);
    if ('error' in built) {
      setError(built.error);
      return;
    }
    if (
      form.force &&
      !(await confirmDialog(forceWarning(direction), direction === 'export' ? 'Force export' : 'Force import'))
    )
      return;
    setPending(direction);
    try {
      await startGitOperation(api, spaceId, direction, built.body);
      // Credentials are never shown again, and force was for this one operation.
      setForm((old) => ({ ...old, url: built.plainUrl, username: '', token: '', force: false }));
      // The server recorded the repository and a running operation with the request.
      gitStores(api).info.invalidate(spaceId);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setPending(undefined);
    }
  };

  const credentialsHint = connected
    ? 'Stored encrypted on the server and never shown again. Leave both empty to keep the stored ones.'
    : 'For a private repository: a username and an access token that may read and push (with a token alone, the username may stay empty). Stored encrypted on the server and never shown again.';
  const busy = pending !== undefined;

  return (
    <form class="git-form" aria-label="Repository" data-testid="git-form" onSubmit={(event) => event.preventDefault()}>
      <Field
        label="Repository URL"
        hint={connected ? undefined : 'The HTTPS address you would clone, as https://github.com/acme/docs.git.'}
      >
        <input
          type="url"
          inputMode="url"
          autocomplete="off"
          spellcheck={false}
          required
          placeholder="https://github.com/acme/docs.git"
          value={form.url}
          data-testid="git-url"
          onInput={(event) => set({ url: event.currentTarget.value })}
        />
      </Field>
      <div class="git-row">
        <Field label="Branch">
          <input
            type="text"
            autocomplete="off"
            spellcheck={false}
            placeholder="main"
            value={form.branch}
            data-testid="git-branch"
            onInput={(event) => set({ branch: event.currentTarget.value })}
          />
        </Field>
        <Field label="Folder in the repository" hint="Optional: empty for the whole repository.">
          <input
            type="text"
            autocomplete="off"
            spellcheck={false}
            placeholder="docs"
            value={form.folder}
            data-testid="git-folder"
            onInput={(event) => set({ folder: event.currentTarget.value })}
          />
        </Field>
      </div>
      <fieldset class="git-credentials" aria-describedby="git-credentials-hint">
        <legend>Credentials</legend>
        <p class="git-hint" id="git-credentials-hint" data-testid="git-credentials-hint">
          <Icon name="lock" class="git-hint-icon" />
          <span>{credentialsHint}</span>
        </p>
        <div class="git-row">
          <Field label="Username">
            <input
              type="text"
              autocomplete="off"
              spellcheck={false}
              value={form.username}
              data-testid="git-username"
              onInput={(event) => set({ username: event.currentTarget.value })}
            />
          </Field>
          <Field label="Access token or password">
            <input
              type="password"
              autocomplete="new-password"
              value={form.token}
              data-testid="git-token"
              onInput={(event) => set({ token: event.currentTarget.value })}
            />
          </Field>
        </div>
      </fieldset>
      <Field label="Commit message of an export">
        <input
          type="text"
          maxLength={10_000}
          value={form.commitMessage}
          data-testid="git-commit-message"
          onInput={(event) => set({ commitMessage: event.currentTarget.value })}
        />
      </Field>
      <label class="toggle git-force">
        <input
          type="checkbox"
          checked={form.force}
          data-testid="git-force"
          aria-describedby={form.force ? 'git-force-warning' : undefined}
          onChange={(event) => set({ force: event.currentTarget.checked })}
        />
        Force: let this operation overwrite the other side
      </label>
      {form.force && (
        <p class="warning-note" id="git-force-warning" data-testid="git-force-warning">
          <Icon name="triangle-alert" class="warning-note-icon" />
          <span>
            An export replaces commits on the branch that this space has not imported; an import replaces the space’s
            pages with the repository’s. What is replaced is lost. You are asked to confirm.
          </span>
        </p>
      )}
      <p class="form-message" role="alert" data-testid="git-form-error">
        {error}
      </p>
      <div class="git-actions">
        {running && (
          <span class="git-actions-note" data-testid="git-running-note">
            Wait for the running operation to end.
          </span>
        )}
        <button
          type="button"
          data-testid="git-import"
          disabled={busy || running}
          aria-busy={pending === 'import'}
          onClick={() => void start('import')}
        >
          Import from Git
        </button>
        <button
          type="button"
          class="primary"
          data-testid="git-export"
          disabled={busy || running}
          aria-busy={pending === 'export'}
          onClick={() => void start('export')}
        >
          Export to Git
        </button>
      </div>
    </form>
  );
}
