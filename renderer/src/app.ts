import { Outbox } from './comments/outbox';
import { formatRoute, parseRoute, sameDocument, type Route } from './routes';
import { restoreSession, signOut, type Session } from './session';
import { installShortcuts } from './shortcuts';
import { h, replace } from './ui/dom';
import { toast } from './ui/toast';
import { pickerView } from './views/picker';
import { signInView } from './views/sign-in';
import { Workspace } from './views/workspace';

/** How often queued comments are retried while some wait (reconnects also flush at once). */
const OUTBOX_RETRY_MS = 5000;

/**
 * The application shell: restores the signed-in account, follows the URL
 * hash (see routes.ts) and shows the sign-in form, the space picker or a
 * workspace. A workspace is kept when only the page changes, so switching
 * pages never reconnects its documents.
 */
export class App {
  private session: Session | undefined;
  private outbox: Outbox | undefined;
  private workspace: Workspace | undefined;
  private route: Route = { view: 'picker' };
  private retry: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly root: HTMLElement) {}

  /** Starts the app. */
  async start(): Promise<void> {
    this.session = await restoreSession();
    if (this.session) this.startOutbox(this.session);
    window.addEventListener('hashchange', () => this.show(parseRoute(location.hash)));
    window.addEventListener('online', () => void this.outbox?.flush());
    installShortcuts(
      (action) => this.workspace?.run(action),
      (action) => (action === 'sign-out' ? void this.signOut() : this.navigate({ view: 'picker' })),
    );
    this.show(parseRoute(location.hash));
  }

  private navigate(route: Route): void {
    const hash = formatRoute(route);
    if (location.hash === hash) this.show(route);
    else location.hash = hash; // -> hashchange -> show
  }

  private show(route: Route): void {
    const previous = this.route;
    this.route = route;
    if (!this.session) {
      this.closeWorkspace();
      replace(this.root, signInView((session) => this.signedIn(session)));
      return;
    }
    if (route.view === 'picker') {
      this.closeWorkspace();
      replace(this.root, pickerView(this.session, (spaceId) => this.navigate({ view: 'space', spaceId }), () => void this.signOut()));
      return;
    }
    if (this.workspace && sameDocument(previous, route)) {
      this.workspace.setPage(route.pageId);
      return;
    }
    this.closeWorkspace();
    const workspace = new Workspace(this.session, this.outbox!, route.spaceId, route.changeRequestId, {
      toPicker: () => this.navigate({ view: 'picker' }),
      toPage: (pageId) => this.navigate({ ...route, ...(pageId ? { pageId } : { pageId: undefined }) }),
      toChangeRequest: (changeRequestId, pageId) => this.navigate({ view: 'space', spaceId: route.spaceId, ...(changeRequestId ? { changeRequestId } : {}), ...(pageId ? { pageId } : {}) }),
      signOut: () => void this.signOut(),
    });
    this.workspace = workspace;
    replace(this.root, workspace.element);
    workspace.open(route.pageId).catch((err: unknown) => {
      replace(this.root, h('main', { class: 'centered' }, h('div', { class: 'state state-error', role: 'alert' }, `Could not open the space: ${(err as Error).message}`)));
    });
  }

  private signedIn(session: Session): void {
    this.session = session;
    this.startOutbox(session);
    this.show(this.route);
  }

  private async signOut(): Promise<void> {
    if (!this.session) return;
    if (this.outbox && this.outbox.size > 0) toast(`${this.outbox.size} queued comment(s) will be sent when you sign in again`);
    await signOut(this.session);
    this.session = undefined;
    if (this.retry) clearInterval(this.retry);
    this.outbox = undefined;
    this.navigate({ view: 'picker' });
  }

  private startOutbox(session: Session): void {
    this.outbox = new Outbox(session.api, { onRejected: (_item, err) => toast(`A queued comment was refused by the server: ${err.message}`, 'error') });
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
