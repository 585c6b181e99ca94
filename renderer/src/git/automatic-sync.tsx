import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, type ApiClient } from '../api/client';
import { relativeTime, fullTime } from '../history/time';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { CopyField } from '../ui/kit/copy-field';
import { confirmDialog } from '../ui/kit/dialog';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { Icon } from '../ui/kit/icon';
import { updateGitSettings, type GitSettings, type GitSettingsChange } from './git-api';
import { automaticSummary, DEFAULT_POLL_MINUTES, parsePollMinutes, POLL_MAX, POLL_MIN } from './git-sync-model';
import { gitStores } from './git-stores';

/**
 * The automatic sync of a space (Folio's `git/settings`): export after every merge, import when the
 * repository announces a push (the webhook's URL to copy, and a new one), check the repository every
 * N minutes. Each change is saved at once; a server without these settings (404) is said so. Those
 * who may not change the sync read it in words.
 */
export function AutomaticSync(props: { api: ApiClient; spaceId: string; manage: boolean }) {
  const { api, spaceId, manage } = props;
  const store = gitStores(api).settings;
  const { state, retry } = useRevalidatedResource(store, spaceId);
  const settings = 'data' in state ? state.data : undefined;
  if (settings === 'unavailable')
    return (
      <div class="git-notice" data-testid="git-auto-unavailable">
        <Icon name="info" class="git-notice-icon" />
        <p>Automatic sync is not available on this server: import and export here when needed.</p>
      </div>
    );
  if (settings === undefined) {
    if (state.status === 'error')
      return manage ? (
        <ErrorState message={`Could not load the automatic sync: ${describeError(state.error)}`} retry={retry} />
      ) : null;
    return <Loading what="the automatic sync" />;
  }
  if (!manage)
    return (
      <ul class="git-auto-summary" data-testid="git-auto-summary">
        {automaticSummary(settings).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    );
  return <AutomaticForm api={api} spaceId={spaceId} settings={settings} />;
}

function AutomaticForm(props: { api: ApiClient; spaceId: string; settings: GitSettings }) {
  const { api, spaceId } = props;
  const [saving, setSaving] = useState(false);
  const [said, setSaid] = useState('');
  const [error, setError] = useState('');
  // What a change being saved shows meanwhile (a box stays as it was clicked), dropped when the server answers.
  const [pending, setPending] = useState<Partial<GitSettings>>({});
  const settings = { ...props.settings, ...pending };
  const [minutes, setMinutes] = useState(String(settings.pollMinutes ?? DEFAULT_POLL_MINUTES));
  const polling = settings.pollMinutes !== null;
  // One save at a time; a change made meanwhile is undone on screen (controls stay enabled, so focus stays).
  const busy = useRef(false);
  const [, redraw] = useState(0);

  // Another window (or the server, bounding it) changed the interval: show the saved one.
  useEffect(() => {
    if (props.settings.pollMinutes !== null) setMinutes(String(props.settings.pollMinutes));
  }, [props.settings.pollMinutes]);

  const save = async (change: GitSettingsChange, done = 'Saved.') => {
    if (busy.current) {
      redraw((n) => n + 1);
      return;
    }
    busy.current = true;
    const { rotateWebhookSecret: _rotate, ...shown } = change;
    setPending(shown);
    setSaving(true);
    setError('');
    setSaid('');
    try {
      gitStores(api).settings.set(spaceId, await updateGitSettings(api, spaceId, change));
      setSaid(done);
    } catch (err) {
      setError(describeError(err));
    } finally {
      busy.current = false;
      setPending({});
      setSaving(false);
    }
  };

  const savePolling = (on: boolean) => {
    if (!on) return void save({ pollMinutes: null });
    const parsed = parsePollMinutes(minutes);
    if ('error' in parsed) {
      setSaid('');
      setError(parsed.error);
      redraw((n) => n + 1);
      return;
    }
    if (parsed.minutes !== settings.pollMinutes) void save({ pollMinutes: parsed.minutes });
  };

  const rotate = async () => {
    const yes = await confirmDialog(
      'Generate a new webhook URL? The current one stops working at once: put the new one in the repository’s webhook settings.',
      'Generate a new URL',
    );
    if (yes) await save({ rotateWebhookSecret: true }, 'A new webhook URL was generated.');
  };

  return (
    <div class="git-auto" data-testid="git-auto" aria-busy={saving}>
      <p class="git-auto-intro">
        The server syncs the space by itself with the repository, branch and credentials above, in the name of whoever
        last changed these settings.
      </p>
      <div class="git-option">
        <label class="toggle git-option-label">
          <input
            type="checkbox"
            checked={settings.exportOnMerge}
            data-testid="git-export-on-merge"
            aria-describedby="git-export-on-merge-hint"
            onChange={(event) => void save({ exportOnMerge: event.currentTarget.checked })}
          />
          Export after every merge
        </label>
        <p class="git-option-hint" id="git-export-on-merge-hint">
          Each merged change request is exported to the branch as one commit.
        </p>
      </div>
      <div class="git-option">
        <label class="toggle git-option-label">
          <input
            type="checkbox"
            checked={settings.importOnPush}
            data-testid="git-import-on-push"
            aria-describedby="git-import-on-push-hint"
            onChange={(event) => void save({ importOnPush: event.currentTarget.checked })}
          />
          Import when the repository announces a push
        </label>
        <p class="git-option-hint" id="git-import-on-push-hint">
          The repository calls a secret webhook URL after each push, and the space imports the branch.
        </p>
        {settings.importOnPush &&
          (settings.webhookUrl ? (
            <div class="git-webhook">
              <CopyField value={settings.webhookUrl} label="Webhook URL" testid="git-webhook-url" />
              <p class="git-option-hint">
                Add it as a push webhook in the repository’s settings (Settings → Webhooks on GitHub, GitLab and Gitea).
                Anyone who has it can start an import: keep it secret.
              </p>
              <button type="button" class="small" data-testid="git-webhook-rotate" onClick={() => void rotate()}>
                <Icon name="refresh" />
                Generate a new URL
              </button>
            </div>
          ) : (
            <p class="git-option-hint" data-testid="git-webhook-hidden">
              The webhook’s URL is shown to the space’s admins.
            </p>
          ))}
      </div>
      <div class="git-option">
        <div class="git-poll">
          <input
            type="checkbox"
            id="git-poll-on"
            checked={polling}
            data-testid="git-poll"
            aria-describedby="git-poll-hint"
            onChange={(event) => savePolling(event.currentTarget.checked)}
          />
          <span class="git-poll-text">
            <label class="toggle git-option-label" for="git-poll-on">
              Check the repository every
            </label>
            <input
              type="number"
              class="git-poll-minutes"
              min={POLL_MIN}
              max={POLL_MAX}
              step={1}
              inputMode="numeric"
              value={minutes}
              disabled={!polling}
              aria-label="Minutes between checks"
              data-testid="git-poll-minutes"
              onInput={(event) => setMinutes(event.currentTarget.value)}
              onChange={() => savePolling(true)}
            />
            <span class="git-option-label">minutes</span>
          </span>
        </div>
        <p class="git-option-hint" id="git-poll-hint" data-testid="git-poll-hint">
          New commits it finds are imported.{' '}
          {settings.lastPolledAt ? (
            <>
              Last checked <time title={fullTime(settings.lastPolledAt)}>{relativeTime(settings.lastPolledAt)}</time>.
            </>
          ) : polling ? (
            'Not checked yet.'
          ) : (
            ''
          )}
        </p>
      </div>
      <p class="git-saved" role="status" data-testid="git-auto-saved">
        {said}
      </p>
      <p class="form-message" role="alert" data-testid="git-auto-error">
        {error}
      </p>
    </div>
  );
}
