import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { fullTime } from '../history/time';
import { useApp } from '../screens/context';
import { confirmDialog } from '../ui/kit/dialog';
import { Icon } from '../ui/kit/icon';
import { Link } from '../ui/kit/link';
import { languageName, nativeLanguageName } from '../../../shared/languages';
import { textFromDocument } from './instructions-document';
import { InstructionsEditor } from './instructions-editor';
import { engineName, isActive, progressLabel, runSummary, statsLines, type RunTone } from './translation-model';
import { translationStores } from './translation-stores';
import type { Translation } from './translations-api';

const TONE_ICON = {
  queued: 'clock',
  running: 'loader',
  succeeded: 'circle-check',
  failed: 'circle-x',
  cancelled: 'circle-alert',
  never: 'clock',
} as const satisfies Record<RunTone, string>;

/**
 * One translation of the space: its language, the state of its latest run (followed by the panel
 * while queued or running: progress, then "Up to date" or the failure in the server's words), what
 * the latest run and all runs did, the translated space, the change request of pages edited by hand,
 * its instructions, and — with its `permissions.edit` — Run now, Edit instructions and Delete.
 */
export function TranslationCard(props: { translation: Translation; orgId: string; now: number; close: () => void }) {
  const { translation: t, orgId } = props;
  const app = useApp();
  const stores = translationStores(app.session.api);
  const [busy, setBusy] = useState<'run' | 'delete'>();
  const [error, setError] = useState('');
  const [editing, setEditing] = useState(false);
  const summary = runSummary(t, props.now);
  const stats = statsLines(t);
  const edit = t.permissions.edit;
  const active = isActive(t);
  const instructions = textFromDocument(t.instructions);
  const canInstruct = t.engine?.instructions !== false;
  const headingId = `translation-${t.id}-name`;
  const review = t.run?.review;
  // Following a link closes the dialog (a plain click: a new tab leaves it open), once the link has
  // navigated (closing unmounts the link, whose own click handler must still run).
  const closeOnPlainClick = (event: MouseEvent) => {
    if (event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey)
      setTimeout(props.close);
  };

  const runNow = async () => {
    setBusy('run');
    setError('');
    try {
      await stores.run(orgId, t.id);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(undefined);
    }
  };

  const remove = async () => {
    const spaceNote = t.result
      ? 'The translated space is kept, with its pages as they are, and is no longer updated.'
      : 'It has no translated space yet.';
    const yes = await confirmDialog(
      `Delete the ${languageName(t.language)} translation? ${spaceNote}`,
      'Delete translation',
    );
    if (!yes) return;
    setBusy('delete');
    setError('');
    try {
      await stores.delete(orgId, t.id);
      // The translated space is an ordinary space now: its badge goes.
      if (t.result) app.stores.space.invalidate(t.result.space);
    } catch (err) {
      setError(describeError(err));
      setBusy(undefined);
    }
  };

  return (
    <article
      class={`tr-card tr-tone-${summary.tone}`}
      aria-labelledby={headingId}
      data-testid="translation"
      data-language={t.language}
      data-state={summary.tone}
    >
      <div class="tr-card-head">
        <span class="tr-code" aria-hidden="true">
          {t.language.toUpperCase()}
        </span>
        <div class="tr-names">
          <h3 id={headingId} class="tr-native" lang={t.language}>
            {nativeLanguageName(t.language)}
          </h3>
          <span class="tr-english">{languageName(t.language)}</span>
        </div>
        <p class="tr-state" role="status" data-testid="translation-state">
          <Icon name={TONE_ICON[summary.tone]} class={summary.tone === 'running' ? 'tr-spinner' : undefined} />
          <span class="tr-state-title">{summary.title}</span>
          {summary.when && summary.at && (
            <time class="tr-state-when" dateTime={summary.at} title={fullTime(summary.at)}>
              {summary.when}
            </time>
          )}
        </p>
      </div>

      {summary.progress && (
        <div class="tr-progress" data-testid="translation-progress">
          <progress
            max={Math.max(summary.progress.total, 1)}
            value={summary.progress.total > 0 ? summary.progress.done : undefined}
            aria-label={`${languageName(t.language)} translation progress`}
          />
          <span>{progressLabel(summary.progress)}</span>
        </div>
      )}

      {t.run?.state === 'failed' && (
        <p class="error-note" data-testid="translation-error">
          {t.run.error?.message || 'The server gave no reason.'}
        </p>
      )}

      {review && t.result && (
        <div class="tr-review" data-testid="translation-review">
          <Icon name="git-pull-request" class="tr-review-icon" />
          <p>
            {review.pages.length === 1
              ? '1 page of the translated space was edited by hand since the last run. It was left as it is; '
              : `${review.pages.length} pages of the translated space were edited by hand since the last run. They were left as they are; `}
            the new translation is proposed in a change request.{' '}
            <Link
              to={{ view: 'space', spaceId: t.result.space, changeRequestId: review.changeRequest }}
              data-testid="translation-review-link"
              onClickCapture={closeOnPlainClick}
            >
              Review the change request
            </Link>
          </p>
        </div>
      )}

      {stats && (
        <dl class="tr-stats">
          <div>
            <dt>Latest run</dt>
            <dd data-testid="translation-latest">{stats.latest}</dd>
          </div>
          <div>
            <dt>All runs</dt>
            <dd data-testid="translation-total">{stats.total}</dd>
          </div>
        </dl>
      )}

      {!editing && instructions && (
        <div class="tr-instructions" data-testid="translation-instructions">
          <span class="tr-instructions-label">Instructions</span>
          <p>{instructions}</p>
        </div>
      )}
      {editing && (
        <InstructionsEditor translation={t} orgId={orgId} initial={instructions} done={() => setEditing(false)} />
      )}

      <div class="tr-card-actions">
        {t.result ? (
          <Link
            to={{ view: 'space', spaceId: t.result.space }}
            class="tr-open"
            data-testid="translation-open"
            onClickCapture={closeOnPlainClick}
          >
            <Icon name="book-open" />
            Open translated space
          </Link>
        ) : (
          <span class="tr-muted-note">The translated space is made by the first run.</span>
        )}
        {edit && (
          <div class="tr-card-buttons">
            {!editing && (
              <button
                type="button"
                class="small"
                title="Edit the instructions"
                data-testid="translation-edit-instructions"
                disabled={!canInstruct || busy !== undefined}
                aria-describedby={canInstruct ? undefined : `translation-${t.id}-no-instructions`}
                onClick={() => setEditing(true)}
              >
                <Icon name="pencil" />
                <span class="tr-narrow-hidden">Instructions</span>
              </button>
            )}
            <button
              type="button"
              class="small"
              title="Delete this translation"
              data-testid="translation-delete"
              disabled={busy !== undefined}
              aria-busy={busy === 'delete'}
              onClick={() => void remove()}
            >
              <Icon name="trash" />
              <span class="tr-narrow-hidden">Delete</span>
            </button>
            <button
              type="button"
              class="small primary"
              data-testid="translation-run"
              disabled={active || busy !== undefined}
              aria-busy={busy === 'run'}
              onClick={() => void runNow()}
            >
              <Icon name="refresh" />
              Run now
            </button>
          </div>
        )}
      </div>
      {edit && !canInstruct && (
        <p class="tr-muted-note" id={`translation-${t.id}-no-instructions`} data-testid="translation-no-instructions">
          {t.engine ? engineName(t.engine) : 'This server’s engine'} cannot follow instructions: this translation runs
          without them.
        </p>
      )}
      <p class="form-message" role="alert" data-testid="translation-action-error">
        {error}
      </p>
    </article>
  );
}
