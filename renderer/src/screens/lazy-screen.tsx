import { useEffect, useState } from 'preact/hooks';
import type { Route } from '../routes';
import { ErrorState, Loading } from '../ui/kit/async-section';
import type { ScreenComponent, ScreenEntry } from './registry';

/** Loaded screen modules, so a screen opened twice is drawn at once the second time. */
const loaded = new Map<string, ScreenComponent>();

/** The screen of a registry row, loading its module on first use (a retry on failure). */
export function LazyScreen({ entry, route }: { entry: ScreenEntry; route: Route }) {
  const [component, setComponent] = useState<{ id: string; screen: ScreenComponent } | undefined>(() => {
    const screen = loaded.get(entry.id);
    return screen ? { id: entry.id, screen } : undefined;
  });
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (loaded.has(entry.id)) {
      setComponent({ id: entry.id, screen: loaded.get(entry.id)! });
      return;
    }
    let live = true;
    setError(undefined);
    entry.load().then(
      (module) => {
        loaded.set(entry.id, module.default);
        if (live) setComponent({ id: entry.id, screen: module.default });
      },
      (err: unknown) => live && setError(err),
    );
    return () => {
      live = false;
    };
  }, [entry, attempt]);
  if (component?.id === entry.id) {
    const Screen = component.screen;
    return <Screen route={route} />;
  }
  if (error)
    return (
      <ErrorState
        message={`Could not load this screen: ${(error as Error).message}`}
        retry={() => setAttempt((n) => n + 1)}
      />
    );
  return <Loading what={entry.label.toLowerCase()} />;
}
