import { signal } from '@preact/signals';
import { render } from 'preact';
import { Outbox } from './comments/outbox';
import { formatRoute, hrefOf, parseAppLink, routeOfLocation, routingMode, type Route } from './routes';
import { AppFrame } from './screens/app-frame';
import type { AppContext, Navigation } from './screens/context';
import type { Shell } from './screens/shell-context';
import { removeAccount, restoreSession, signOut, switchAccount, type Session } from './session';
import { workspaceActions } from './screens/workspace-actions';
import { installShortcuts } from './shortcuts';
import { signInTarget } from './sign-in/return-to';
import { Stores } from './stores/stores';
import { restoreTheme } from './ui/theme';
import { toast } from './ui/toast';

/** How often queued comments are retried while some wait (reconnects also flush at once). */
const OUTBOX_RETRY_MS = 5000;

/**
 * The application shell: restores the signed-in account, follows the URL (see routes.ts), keeps
 * the account's stores and comment outbox, and renders the screen the registry names for the
 * route (screens/app-frame.tsx). The route and the session are signals: changing either re-renders
 * exactly what depends on them.
 */
export class App {
  private readonly route = signal<Route>({ view: 'picker' });
  private readonly context = signal<AppContext | undefined>(undefined);
  private session: Session | undefined;
  private retry: ReturnType<typeof setInterval> | undefined;
  /** Where "Back" in the settings returns to. */
  private beforeSettings: Route = { view: 'picker' };
  /** History routing under /app/ in the web app; the hash elsewhere (desktop, static hosts). */
  private readonly mode = routingMode(location);
  /** The server a followed link named, to suggest on the sign-in form. */
  private linkServer: string | undefined;

  readonly nav: Navigation = {
    go: (route, replace) => this.navigate(route, replace),
    href: (route) => hrefOf(route, this.mode),
    signOut: () => void this.signOut(),
    openSettings: () => this.navigate({ view: 'settings' }),
  };

  constructor(private readonly root: HTMLElement) {}

  /** Starts the app. */
  async start(): Promise<void> {
    await restoreTheme();
    this.setSession(await restoreSession());
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
    window.addEventListener('online', () => void this.context.peek()?.outbox.flush());
    installShortcuts(
      (action) => workspaceActions.run?.(action),
      (action) => (action === 'sign-out' ? void this.signOut() : this.navigate({ view: 'settings' })),
    );
    this.show(routeOfLocation(location));
    render(<AppFrame route={this.route} context={this.context} shell={() => this.shell()} nav={this.nav} />, this.root);
    // The workspace (editor, preview, sync) is most of the code, in a chunk of its own: fetch it
    // right after the first paint, so a space still opens if the server goes away meanwhile.
    setTimeout(() => void import('./views/workspace').catch(() => undefined), 0);
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
    if (this.mode === 'history' && !location.hash.startsWith('#/') && sameScreen(this.route.peek(), route)) return;
    this.show(route);
  }

  private show(route: Route): void {
    const previous = this.route.peek();
    if (route.view === 'settings' && previous.view !== 'settings' && previous.view !== 'sign-in')
      this.beforeSettings = previous;
    this.route.value = route;
  }

  /** What the sign-in and settings screens need of the shell. */
  private shell(): Shell {
    const route = this.route.peek();
    return {
      session: this.session,
      wanted: route,
      signedIn: (session) => {
        this.setSession(session);
        if (this.route.peek().view === 'sign-in') this.navigate({ view: 'picker' });
      },
      switchAccount: async (serverUrl) => {
        this.setSession(await switchAccount(serverUrl));
        this.navigate({ view: 'picker' });
      },
      removeAccount: async (serverUrl) => {
        if (serverUrl === this.session?.account.serverUrl) return this.signOut();
        await removeAccount(serverUrl);
      },
      signOut: () => this.signOut(),
      back: () => this.navigate(this.session ? this.beforeSettings : { view: 'picker' }),
      signIn: {
        ...(this.linkServer ? { initialServer: this.linkServer } : {}),
        // Browser sign-ins leave the page: say where to come back to (only the web app has paths).
        ...(this.mode === 'history' ? signInTarget(location, route.view === 'sign-in') : {}),
        // Followed a link while signed out: say that it opens once signed in.
        ...(route.view !== 'picker' && route.view !== 'sign-in' && route.view !== 'settings'
          ? { note: route.view === 'join' ? 'Sign in to accept the invite.' : 'Sign in to open the link you followed.' }
          : {}),
      },
    };
  }

  private async signOut(): Promise<void> {
    const context = this.context.peek();
    if (!this.session || !context) return;
    if (context.outbox.size > 0) toast(`${context.outbox.size} queued comment(s) will be sent when you sign in again`);
    await signOut(this.session);
    this.setSession(undefined);
    this.navigate({ view: 'picker' });
  }

  /** Makes `session` the one in use (undefined: nobody signed in), with its own stores and comment outbox. */
  private setSession(session: Session | undefined): void {
    this.session = session;
    if (this.retry) clearInterval(this.retry);
    this.retry = undefined;
    if (!session) {
      this.context.value = undefined;
      return;
    }
    const outbox = new Outbox(session.api, {
      onRejected: (_item, err) => toast(`A queued comment was refused by the server: ${err.message}`, 'error'),
    });
    this.retry = setInterval(() => {
      if (outbox.size > 0) void outbox.flush();
    }, OUTBOX_RETRY_MS);
    void outbox.flush();
    this.context.value = { session, stores: new Stores(session.api), nav: this.nav, outbox };
  }
}

/** Whether two routes show the same screen (a section anchor aside). */
function sameScreen(a: Route, b: Route): boolean {
  return formatRoute({ ...a, section: undefined } as Route) === formatRoute({ ...b, section: undefined } as Route);
}
