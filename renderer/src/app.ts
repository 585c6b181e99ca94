import { Outbox } from './comments/outbox';
import { formatRoute, parseRoute, sameDocument, type Route } from './routes';
import { removeAccount, restoreSession, signOut, switchAccount, type Session } from './session';
import { installShortcuts } from './shortcuts';
import { errorState, h, loading, replace } from './ui/dom';
import { restoreTheme } from './ui/theme';
import { toast } from './ui/toast';
import { pickerView } from './views/picker';
import { settingsView } from './views/settings';
import { signInView } from './views/sign-in';
import type { Workspace } from './views/workspace';

/**
 * The workspace (editor, preview, sync, panels) is most of the code: a chunk of its own, so the
 * sign-in form and the picker paint before it loads. It is fetched right after the first paint
 * too, so a space still opens if the server serving the web app goes away meanwhile.
 */
const loadWorkspace = () => import('./views/workspace');

/** How often queued comments are retried while some wait (reconnects also flush at once). */
const OUTBOX_RETRY_MS = 5000;

/**
 * The application shell: restores the signed-in account, follows the URL
 * hash (see routes.ts) and shows the sign-in form, the space picker, the
 * settings or a workspace. A workspace is kept when only the page changes, so switching
 * pages never reconnects its documents.
 */
export class App {
  private session: Session | undefined;
  private outbox: Outbox | undefined;
  private workspace: Workspace | undefined;
  private route: Route = { view: 'picker' };
  /** Counts show() calls, so a workspace whose code arrives after the user moved on is dropped. */
  private generation = 0;
  private retry: ReturnType<typeof setInterval> | undefined;
  /** Where "Back" in the settings returns to. */
  private beforeSettings: Route = { view: 'picker' };

  constructor(private readonly root: HTMLElement) {}

  /** Starts the app. */
  async start(): Promise<void> {
    await restoreTheme();
    this.session = await restoreSession();
    if (this.session) this.startOutbox(this.session);
    window.addEventListener('hashchange', () => this.show(parseRoute(location.hash)));
    window.addEventListener('online', () => void this.outbox?.flush());
    installShortcuts(
      (action) => this.workspace?.run(action),
      (action) => (action === 'sign-out' ? void this.signOut() : this.navigate({ view: 'settings' })),
    );
    this.show(parseRoute(location.hash));
    setTimeout(() => void loadWorkspace().catch(() => undefined), 0);
  }

  private navigate(route: Route): void {
    const hash = formatRoute(route);
    if (location.hash === hash) this.show(route);
    else location.hash = hash; // -> hashchange -> show
  }

  private show(route: Route): void {
    const previous = this.route;
    this.route = route;
    const generation = ++this.generation;
    if (route.view === 'settings') {
      if (previous.view !== 'settings' && previous.view !== 'sign-in') this.beforeSettings = previous;
      this.closeWorkspace();
      replace(this.root, this.settings());
      return;
    }
    if (!this.session || route.view === 'sign-in') {
      this.closeWorkspace();
      replace(
        this.root,
        signInView((session) => this.signedIn(session), { openSettings: () => this.navigate({ view: 'settings' }) }),
      );
      return;
    }
    if (route.view === 'picker') {
      this.closeWorkspace();
      replace(
        this.root,
        pickerView(this.session, {
          open: (spaceId) => this.navigate({ view: 'space', spaceId }),
          signOut: () => void this.signOut(),
          openSettings: () => this.navigate({ view: 'settings' }),
        }),
      );
      return;
    }
    if (this.workspace && sameDocument(previous, route)) {
      this.workspace.setPage(route.pageId);
      return;
    }
    this.closeWorkspace();
    replace(this.root, h('main', { class: 'centered' }, loading('space')));
    void this.openWorkspace(route, generation);
  }

  private async openWorkspace(route: Route & { view: 'space' }, generation: number): Promise<void> {
    let WorkspaceClass: typeof Workspace;
    try {
      ({ Workspace: WorkspaceClass } = await loadWorkspace());
    } catch (err) {
      if (generation === this.generation)
        replace(
          this.root,
          h(
            'main',
            { class: 'centered' },
            errorState(`Could not load the editor: ${(err as Error).message}`, () => this.show(route)),
          ),
        );
      return;
    }
    if (generation !== this.generation || !this.session) return;
    const workspace = new WorkspaceClass(this.session, this.outbox!, route.spaceId, route.changeRequestId, {
      toPicker: () => this.navigate({ view: 'picker' }),
      toPage: (pageId) => this.navigate({ ...route, ...(pageId ? { pageId } : { pageId: undefined }) }),
      toChangeRequest: (changeRequestId, pageId) =>
        this.navigate({
          view: 'space',
          spaceId: route.spaceId,
          ...(changeRequestId ? { changeRequestId } : {}),
          ...(pageId ? { pageId } : {}),
        }),
      signOut: () => void this.signOut(),
      openSettings: () => this.navigate({ view: 'settings' }),
    });
    this.workspace = workspace;
    replace(this.root, workspace.element);
    workspace.open(route.pageId).catch((err: unknown) => {
      replace(
        this.root,
        h(
          'main',
          { class: 'centered' },
          h(
            'div',
            { class: 'state state-error', role: 'alert' },
            `Could not open the space: ${(err as Error).message}`,
          ),
        ),
      );
    });
  }

  private settings(): HTMLElement {
    return settingsView({
      switchTo: async (serverUrl) => {
        this.setSession(await switchAccount(serverUrl));
        this.navigate({ view: 'picker' });
      },
      remove: async (serverUrl) => {
        if (serverUrl === this.session?.account.serverUrl) return this.signOut();
        await removeAccount(serverUrl);
      },
      signOut: () => this.signOut(),
      addAccount: () => this.navigate({ view: 'sign-in' }),
      back: () => this.navigate(this.session ? this.beforeSettings : { view: 'picker' }),
    });
  }

  private signedIn(session: Session): void {
    this.setSession(session);
    if (this.route.view === 'sign-in') this.navigate({ view: 'picker' });
    else this.show(this.route);
  }

  private async signOut(): Promise<void> {
    if (!this.session) return;
    if (this.outbox && this.outbox.size > 0)
      toast(`${this.outbox.size} queued comment(s) will be sent when you sign in again`);
    await signOut(this.session);
    this.setSession(undefined);
    this.navigate({ view: 'picker' });
  }

  /** Makes `session` the one in use (undefined: nobody signed in), with its own comment outbox. */
  private setSession(session: Session | undefined): void {
    this.closeWorkspace();
    this.session = session;
    if (this.retry) clearInterval(this.retry);
    this.retry = undefined;
    this.outbox = undefined;
    if (session) this.startOutbox(session);
  }

  private startOutbox(session: Session): void {
    this.outbox = new Outbox(session.api, {
      onRejected: (_item, err) => toast(`A queued comment was refused by the server: ${err.message}`, 'error'),
    });
    if (this.retry) clearInterval(this.retry);
    this.retry = setInterval(() => {
      if (this.outbox && this.outbox.size > 0) void this.outbox.flush();
    }, OUTBOX_RETRY_MS);
    void this.outbox.flush();
  }

  private closeWorkspace(): void {
    this.workspace?.destroy();
    this.workspace = undefined;
  }
}
