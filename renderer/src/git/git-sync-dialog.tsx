import { useState } from 'preact/hooks';
import { describeError, type ApiClient } from '../api/client';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { confirmDialog, Dialog, DialogActions, openDialog } from '../ui/kit/dialog';
import { useInterval } from '../ui/kit/hooks';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { Tabs } from '../ui/kit/tabs';
import { disconnectGit, type GitSyncInfo } from './git-api';
import { AutomaticSync } from './automatic-sync';
import { GitStatus } from './git-status';
import { gitStores } from './git-stores';
import { RepositoryFormView } from './repository-form';
import '../ui/kit/underline-tabs.css';
import './git-sync.css';

/** How often the state is read while an operation runs (one row on the server). */
const POLL_MS = 1500;
/** How often "3 min ago" is brought up to date. */
const CLOCK_MS = 30_000;

/**
 * Opens "Git sync…" of a space. `manage` (the space's `permissions.triggerGitSync`) gives the form,
 * the operations, the automatic sync and Disconnect; without it the state is shown read-only.
 * Resolves when the panel closes (an operation started goes on on the server).
 */
export function openGitSyncDialog(api: ApiClient, spaceId: string, manage: boolean): Promise<void> {
  return openDialog<void>((close) => (
    <GitSyncDialog api={api} spaceId={spaceId} manage={manage} onClose={() => close()} />
  ));
}

type Tab = 'repository' | 'automatic';

/**
 * The Git sync panel: the status (repository, last operation, polled while it runs) on top, then
 * for those who may manage it two tabs, "Repository" (the form and Import / Export) and
 * "Automatic sync"; a space without a sync shows only the form. The state comes from the shared
 * Git sync store, so the space header's menu and this panel agree.
 */
export function GitSyncDialog(props: { api: ApiClient; spaceId: string; manage: boolean; onClose: () => void }) {
  const { api, spaceId, manage } = props;
  const store = gitStores(api).info;
  const { state, retry } = useRevalidatedResource(store, spaceId);
  const info = 'data' in state ? state.data : undefined;
  const [now, setNow] = useState(Date.now());
  const running = info?.operation?.state === 'running';

  useInterval(() => store.invalidate(spaceId), running ? POLL_MS : undefined);
  useInterval(() => setNow(Date.now()), CLOCK_MS);

  let body;
  if (info === undefined)
    body =
      state.status === 'error' ? (
        <ErrorState message={`Could not load the Git sync: ${describeError(state.error)}`} retry={retry} />
      ) : (
        <Loading what="the Git sync" />
      );
  else
    body = (
      <>
        <GitStatus info={info} now={running ? Date.now() : now} manage={manage} />
        {state.status === 'error' && (
          <p class="form-message" role="alert" data-testid="git-refresh-error">
            Could not read the latest state: {describeError(state.error)}
          </p>
        )}
        {manage ? (
          <ManageBody api={api} spaceId={spaceId} info={info} />
        ) : (
          info && <ReadOnlyBody api={api} spaceId={spaceId} />
        )}
      </>
    );

  return (
    <Dialog title="Git sync" onClose={props.onClose} testid="git-sync-dialog" class="git-sync-dialog">
      <div class="git-sync" data-testid="git-sync" data-manage={manage ? 'true' : 'false'}>
        {body}
      </div>
      <DialogActions>
        {manage && info && <DisconnectButton api={api} spaceId={spaceId} />}
        <button type="button" class="git-close" data-testid="git-close" onClick={props.onClose}>
          Close
        </button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The form stays mounted in one place whether the space is connected or not and whichever tab is
 * shown, so nothing typed is lost when the first operation connects the space or the tab changes.
 */
function ManageBody(props: { api: ApiClient; spaceId: string; info: GitSyncInfo | null }) {
  const [tab, setTab] = useState<Tab>('repository');
  const connected = props.info !== null;
  const shown: Tab = connected ? tab : 'repository';
  const panel = (id: Tab) =>
    connected ? { role: 'tabpanel' as const, id: `git-sync-${id}`, 'aria-labelledby': `git-sync-tab-${id}` } : {};
  return (
    <>
      {connected && (
        <Tabs<Tab>
          label="Git sync"
          class="underline-tabs git-tabs"
          panelPrefix="git-sync"
          active={shown}
          onSelect={setTab}
          items={[
            { id: 'repository', label: 'Repository', testid: 'git-tab-repository' },
            { id: 'automatic', label: 'Automatic sync', testid: 'git-tab-automatic' },
          ]}
        />
      )}
      <div class="git-tab-panel" hidden={shown !== 'repository'} {...panel('repository')}>
        <RepositoryFormView api={props.api} spaceId={props.spaceId} info={props.info} />
      </div>
      {shown === 'automatic' && (
        <div class="git-tab-panel" {...panel('automatic')}>
          <AutomaticSync api={props.api} spaceId={props.spaceId} manage />
        </div>
      )}
    </>
  );
}

function ReadOnlyBody(props: { api: ApiClient; spaceId: string }) {
  return (
    <section class="git-readonly" aria-labelledby="git-auto-heading" data-testid="git-readonly">
      <h3 id="git-auto-heading">Automatic sync</h3>
      <AutomaticSync api={props.api} spaceId={props.spaceId} manage={false} />
      <p class="git-readonly-note">Only the space’s admins can import, export or change the Git sync.</p>
    </section>
  );
}

/** Forgets the sync and its stored credentials, after a confirmation; the panel then shows the empty form. */
function DisconnectButton(props: { api: ApiClient; spaceId: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const disconnect = async () => {
    const yes = await confirmDialog(
      'Disconnect this space from its Git repository? Its stored credentials and automatic sync are deleted; the repository and the space’s pages stay as they are.',
      'Disconnect',
    );
    if (!yes) return;
    setBusy(true);
    setError('');
    try {
      await disconnectGit(props.api, props.spaceId);
      const stores = gitStores(props.api);
      stores.info.set(props.spaceId, null);
      stores.settings.invalidate(props.spaceId);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        class="git-disconnect"
        data-testid="git-disconnect"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void disconnect()}
      >
        Disconnect
      </button>
      <span class="form-message git-disconnect-error" role="alert" data-testid="git-disconnect-error">
        {error}
      </span>
      <span class="spacer" />
    </>
  );
}
