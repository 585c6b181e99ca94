import { Outbox } from './comments/outbox';
import { orgNavigation, type OrgNavigation } from './org/navigation';
import { orgScreenFor } from './org/screens';
import { resolveSpaceRoute } from './org/resolve-route';
import {
  formatRoute,
  hrefOf,
  parseAppLink,
  routeOfLocation,
  routingMode,
  sameDocument,
  type Route,
  type SpaceRoute,
} from './routes';
import { removeAccount, restoreSession, signOut, switchAccount, type Session } from './session';
import { installShortcuts } from './shortcuts';
import { signInTarget } from './sign-in/return-to';
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
  /** History routing under /app/ in the web app; the hash elsewhere (desktop, static hosts). */
  private readonly mode = routingMode(location);
  /** The server a followed link named, to suggest on the sign-in form. */
  private linkServer: string | undefined;

  constructor(private readonly root: HTMLElement) {}

  /** Starts the app. */
  async start(): Promise<void> {
    await restoreTheme();
    this.session = await restoreSession();
    if (this.session) this.startOutbox(this.session);
    window.addEventListener('hashchange', () => this.followLocation());
    if (this.mode === 'history') {
      window.addEventListener('popstate', () => this.followLocation());
      // An old `#/spaces/…` link opened on the web app: rewrite it to the path form it stands for.
      if (location.hash.startsWith('#/')) history.replaceState(null, '', hrefOf(routeOfLocation(location), 'history'));
    }
    // Desktop: `folio://` links the operating system hands to the app (main/deep-links.ts).
    (globalThis as { folio?: { onOpenUrl?(listener: (url: string) => void): () => void } }).folio?.onOpenUrl?.(
      (url) => void this.openLink(url),
    );
    window.addEventListener('online', () => void this.outbox?.flush());
    installShortcuts(
      (action) => this.workspace?.run(action),
      (action) => (action === 'sign-out' ? void this.signOut() : this.navigate({ view: 'settings' })),
    );
    this.show(routeOfLocation(location));
    setTimeout(() => void loadWorkspace().catch(() => undefined), 0);
  }

  /** Opens `route` and records it in the URL (`replace`: without a new history entry). */
  private navigate(route: Route, replace = false): void {
    if (this.mode === 'history') {
      const href = hrefOf(route, 'history');
      if (`${location.pathname}${location.hash}` !== href) {
        if (replace) history.replaceState(null, '', href);
        else history.pushState(null, '', href);
      }
      this.show(route);
      return;
    }
    const hash = formatRoute(route);
    if (location.hash === hash) this.show(route);
    else if (replace) {
      history.replaceState(null, '', hash);
      this.show(route);
    } else location.hash = hash; // -> hashchange -> show
  }

  /**
   * Opens a `folio://` link. One that names another server switches to the account saved for it;
   * without one, the sign-in form opens with that server filled in.
   */
  private async openLink(url: string): Promise<void> {
    const link = parseAppLink(url);
    if (!link) return;
    if (link.serverUrl && link.serverUrl !== this.session?.account.serverUrl) {
      try {
        this.setSession(await switchAccount(link.serverUrl));
      } catch {
        toast(`Sign in to ${link.serverUrl} to open this link`);
        this.setSession(undefined);
        this.linkServer = link.serverUrl;
      }
    }
    this.navigate(link.route);
  }

  /** Back/forward, or a hash typed or clicked. */
  private followLocation(): void {
    if (this.mode === 'history' && location.hash.startsWith('#/')) {
      history.replaceState(null, '', hrefOf(routeOfLocation(location), 'history'));
    }
    const route = routeOfLocation(location);
    // Only the section changed (a heading link inside the page): the open page scrolls by itself.
    if (this.mode === 'history' && !location.hash.startsWith('#/') && sameScreen(this.route, route)) return;
    this.show(route);
  }

  /** What the organization screens use to move around the app. */
  private orgNav(): OrgNavigation {
    return orgNavigation({
      go: (route) => this.navigate(route),
      href: (route) => hrefOf(route, this.mode),
      signOut: () => void this.signOut(),
      openSettings: () => this.navigate({ view: 'settings' }),
    });
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
        signInView((session) => this.signedIn(session), {
          openSettings: () => this.navigate({ view: 'settings' }),
          ...(this.linkServer ? { initialServer: this.linkServer } : {}),
          // Browser sign-ins leave the page: say where to come back to (only the web app has paths).
          ...(this.mode === 'history' ? signInTarget(location, route.view === 'sign-in') : {}),
          // Followed a link while signed out: say that it opens once signed in.
          ...(route.view !== 'picker' && route.view !== 'sign-in'
            ? {
                note:
                  route.view === 'join' ? 'Sign in to accept the invite.' : 'Sign in to open the link you followed.',
              }
            : {}),
        }),
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
          openOrg: (orgId) => this.navigate({ view: 'org', orgId, tab: 'home' }),
          newOrg: () => this.navigate({ view: 'new-org' }),
          account: () => this.navigate({ view: 'account' }),
        }),
      );
      return;
    }
    if (route.view !== 'space') {
      this.closeWorkspace();
      replace(this.root, orgScreenFor(this.session, route, this.orgNav()));
      return;
    }
    if (route.changeRequestNumber !== undefined || route.pagePath !== undefined) {
      // A link by number or by path (`urls.app`): find the ids, then open them in place of the link.
      this.closeWorkspace();
      replace(this.root, h('main', { class: 'centered' }, loading('link')));
      void this.resolveAndOpen(route, generation);
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

  private async resolveAndOpen(route: SpaceRoute, generation: number): Promise<void> {
    if (!this.session) return;
    const resolved = await resolveSpaceRoute(this.session.api, route);
    if (generation !== this.generation) return;
    if (resolved.problem) toast(resolved.problem, 'error');
    this.navigate(resolved.route, true);
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
      toPage: (pageId) =>
        this.navigate({
          view: 'space',
          spaceId: route.spaceId,
          ...(route.changeRequestId ? { changeRequestId: route.changeRequestId } : {}),
          ...(pageId ? { pageId } : {}),
        }),
      toChangeRequest: (changeRequestId, pageId) =>
        this.navigate({
          view: 'space',
          spaceId: route.spaceId,
          ...(changeRequestId ? { changeRequestId } : {}),
          ...(pageId ? { pageId } : {}),
        }),
      toSpace: (spaceId, pageId) => this.navigate({ view: 'space', spaceId, pageId }),
      signOut: () => void this.signOut(),
      openSettings: () => this.navigate({ view: 'settings' }),
    });
    this.workspace = workspace;
    replace(this.root, workspace.element);
    const opened = workspace.open(route.pageId);
    // A link to a heading (`urls.app` of a search hit): scroll to it once the page has rendered.
    const section = route.section;
    if (section)
      void opened
        .then(() => import('./org/scroll-section'))
        .then(
          ({ scrollToSection }) => scrollToSection(workspace.element, section),
          () => undefined,
        );
    opened.catch((err: unknown) => {
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
    return settingsView(this.session, {
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

/** Whether two routes show the same screen (a section anchor aside). */
function sameScreen(a: Route, b: Route): boolean {
  return formatRoute({ ...a, section: undefined } as Route) === formatRoute({ ...b, section: undefined } as Route);
}
