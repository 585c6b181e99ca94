import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { resolveSpaceRoute } from '../org/resolve-route';
import type { SpaceRoute } from '../routes';
import { toast } from '../ui/toast';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { useApp } from './context';

type WorkspaceComponent = ComponentType<{ route: SpaceRoute }>;

/** The workspace's module once loaded (it is most of the app's code, in a chunk of its own). */
let loadedWorkspace: WorkspaceComponent | undefined;

/**
 * A space or one of its change requests: the workspace (tree, editor, preview, panels). Its code
 * is a chunk of its own. It is kept while only the page changes, so switching pages never
 * reconnects its documents (another space or change request is a new workspace: its key); a link
 * by path or number (`urls.app`) is resolved to ids first.
 */
export function SpaceScreen({ route }: { route: SpaceRoute }) {
  const app = useApp();
  const [Workspace, setWorkspace] = useState<WorkspaceComponent | undefined>(() => loadedWorkspace);
  const [problem, setProblem] = useState<string>();
  const [attempt, setAttempt] = useState(0);
  const unresolved = route.changeRequestNumber !== undefined || route.pagePath !== undefined;

  useEffect(() => {
    if (!unresolved) return;
    let live = true;
    void resolveSpaceRoute(app.session.api, route).then((resolved) => {
      if (!live) return;
      if (resolved.problem) toast(resolved.problem, 'error');
      app.nav.go(resolved.route, true);
    });
    return () => {
      live = false;
    };
  }, [unresolved, route.spaceId, route.changeRequestNumber, route.pagePath]);

  useEffect(() => {
    if (Workspace) return;
    let live = true;
    setProblem(undefined);
    import('../views/workspace').then(
      (module) => {
        loadedWorkspace = module.Workspace;
        if (live) setWorkspace(() => module.Workspace);
      },
      (err: unknown) => live && setProblem(`Could not load the editor: ${(err as Error).message}`),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  if (problem)
    return (
      <main class="centered">
        <ErrorState message={problem} retry={() => setAttempt((n) => n + 1)} />
      </main>
    );
  return (
    <div class="space-host">
      {unresolved || !Workspace ? (
        <main class="centered">
          <Loading what={unresolved ? 'link' : 'space'} />
        </main>
      ) : (
        <Workspace key={`${route.spaceId}/${route.changeRequestId ?? ''}`} route={route} />
      )}
    </div>
  );
}
