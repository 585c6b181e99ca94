import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { useApp } from '../screens/context';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { useInterval, useResource } from '../ui/kit/hooks';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { AddLanguageForm } from './add-language-form';
import { EngineNotice } from './engine-notice';
import { TranslationCard } from './translation-card';
import { isActive, knownEngine, translationsOf } from './translation-model';
import { translationStores } from './translation-stores';
import type { TranslatedSpace } from './translations-dialog';

/** How often a queued or running translation is read again (one row on the server). */
const POLL_MS = 1500;
/** How often "3 min ago" is brought up to date. */
const CLOCK_MS = 30_000;

/**
 * The "Languages" tab: the space's translations (each followed while its run is queued or running),
 * a notice when the server has no translation engine, and for those who may, "Add a language".
 * The list is the organization's, from the shared translation store (re-read on opening).
 */
export function TranslationsPanel(props: { space: TranslatedSpace; manage: boolean; close: () => void }) {
  const { space, manage } = props;
  const app = useApp();
  const stores = translationStores(app.session.api);
  const orgId = space.organization;
  const { state, retry } = useRevalidatedResource(stores.list, orgId);
  const engineState = useResource(stores.engine, orgId).state;
  const all = 'data' in state ? state.data : undefined;
  const mine = all ? translationsOf(all, space.id) : [];
  const active = mine.filter(isActive).map((t) => t.id);
  const [now, setNow] = useState(Date.now());
  const [pollError, setPollError] = useState('');
  const reading = useRef(new Set<string>());

  // Only the translations being run are read again, one at a time each (a slow answer is not doubled).
  useInterval(
    () => {
      for (const id of active) {
        if (reading.current.has(id)) continue;
        reading.current.add(id);
        stores
          .refresh(orgId, id)
          .then(
            () => setPollError(''),
            (err: unknown) => setPollError(describeError(err)),
          )
          .finally(() => reading.current.delete(id));
      }
    },
    active.length ? POLL_MS : undefined,
  );
  useInterval(() => setNow(Date.now()), CLOCK_MS);

  // A run that ended may have made the translated space: the organization's lists of spaces follow.
  const wasActive = useRef<string[]>([]);
  const activeKey = active.join(',');
  useEffect(() => {
    if (wasActive.current.some((id) => !active.includes(id))) app.stores.orgSpaces.invalidate(orgId);
    wasActive.current = active;
  }, [activeKey]);

  if (!all)
    return state.status === 'error' ? (
      <ErrorState message={`Could not load the translations: ${describeError(state.error)}`} retry={retry} />
    ) : (
      <Loading what="the translations" />
    );

  const engine = 'data' in engineState ? engineState.data : knownEngine(all);
  const sourceLanguage = space.language ?? mine[0]?.source.language;
  const anyEditable = mine.some((t) => t.permissions.edit);
  return (
    <div class="tr-panel" data-testid="translations-panel" data-manage={manage ? 'true' : 'false'}>
      {engine === null && <EngineNotice manage={manage} />}
      {state.status === 'error' && (
        <p class="form-message" role="alert">
          Could not read the latest state: {describeError(state.error)}
        </p>
      )}
      {pollError && (
        <p class="form-message" role="alert" data-testid="translations-poll-error">
          Could not follow the run: {pollError}
        </p>
      )}
      {mine.length ? (
        <ul class="tr-list" aria-label="Languages of this space" data-testid="translations-list">
          {mine.map((t) => (
            <li key={t.id}>
              <TranslationCard
                translation={t}
                orgId={orgId}
                now={active.length ? Date.now() : now}
                close={props.close}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p class="tr-empty" data-testid="translations-empty">
          {manage ? 'This space has no translations yet. Add a language below.' : 'This space has no translations.'}
        </p>
      )}
      {manage ? (
        <AddLanguageForm
          orgId={orgId}
          spaceId={space.id}
          sourceLanguage={sourceLanguage}
          taken={mine.map((t) => t.language)}
          engine={engine}
        />
      ) : (
        !anyEditable && (
          <p class="tr-note" data-testid="translations-readonly">
            You can see this space’s translations. Adding languages, and running, changing or deleting translations, is
            for members who may create content in the organization.
          </p>
        )
      )}
    </div>
  );
}
