import { useEffect, useRef, useState } from 'preact/hooks';
import { resolveSpaceRoute } from '../org/resolve-route';
import type { SpaceRoute } from '../routes';
import { toast } from '../ui/toast';
import { ErrorState, Loading } from '../ui/kit/async-section';
import type { Workspace } from '../views/workspace';
import { useApp } from './context';
import { workspaceActions } from './workspace-actions';

/**
 * A space or one of its change requests: the workspace (tree, editor, preview, panels). Its code
 * is a chunk of its own. It is kept while only the page changes, so switching pages never
 * reconnects its documents; a link by path or number (`urls.app`) is resolved to ids first.
 */
export function SpaceScreen({ route }: { route: SpaceRoute }) {
  const app = useApp();
  const host = useRef<HTMLDivElement>(null);
  const workspace = useRef<Workspace>();
  const [problem, setProblem] = useState<{ message: string; retry?: () => void }>();
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
    if (unresolved) return;
    let live = true;
    let opened: Workspace | undefined;
    setProblem(undefined);
    import('../views/workspace').then(
      ({ Workspace: WorkspaceClass }) => {
        if (!live) return;
        const { spaceId, changeRequestId } = route;
        opened = new WorkspaceClass(app.session, app.outbox, spaceId, changeRequestId, {
          stores: app.stores,
          toPicker: () => app.nav.go({ view: 'picker' }),
          toPage: (pageId) =>
            app.nav.go({
              view: 'space',
              spaceId,
              ...(changeRequestId ? { changeRequestId } : {}),
              ...(pageId ? { pageId } : {}),
            }),
          toChangeRequest: (crId, pageId) =>
            app.nav.go({
              view: 'space',
              spaceId,
              ...(crId ? { changeRequestId: crId } : {}),
              ...(pageId ? { pageId } : {}),
            }),
          toSpace: (otherSpace, pageId) => app.nav.go({ view: 'space', spaceId: otherSpace, pageId }),
          signOut: () => app.nav.signOut(),
          openSettings: () => app.nav.openSettings(),
        });
        workspace.current = opened;
        workspaceActions.run = (action) => opened?.run(action);
        host.current!.replaceChildren(opened.element);
        const done = opened.open(route.pageId);
        // A link to a heading (`urls.app` of a search hit): scroll to it once the page has rendered.
        const section = route.section;
        if (section)
          void done
            .then(() => import('../org/scroll-section'))
            .then(
              ({ scrollToSection }) => live && opened && scrollToSection(opened.element, section),
              () => undefined,
            );
        done.catch(
          (err: unknown) => live && setProblem({ message: `Could not open the space: ${(err as Error).message}` }),
        );
      },
      (err: unknown) =>
        live &&
        setProblem({
          message: `Could not load the editor: ${(err as Error).message}`,
          retry: () => setAttempt((n) => n + 1),
        }),
    );
    return () => {
      live = false;
      if (workspace.current === opened) workspaceActions.run = undefined;
      opened?.destroy();
      workspace.current = undefined;
      host.current?.replaceChildren();
    };
  }, [unresolved, route.spaceId, route.changeRequestId, attempt]);

  useEffect(() => {
    if (!unresolved) workspace.current?.setPage(route.pageId);
  }, [route.pageId]);

  if (problem)
    return (
      <main class="centered">
        <ErrorState message={problem.message} retry={problem.retry} />
      </main>
    );
  return (
    <div ref={host} class="space-host">
      {unresolved && (
        <main class="centered">
          <Loading what="link" />
        </main>
      )}
    </div>
  );
}
