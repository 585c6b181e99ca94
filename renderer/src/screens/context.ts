import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Outbox } from '../comments/outbox';
import type { Route } from '../routes';
import type { Session } from '../session';
import type { Stores } from '../stores/stores';

/** How screens move around the app (the app owns the URL). */
export interface Navigation {
  /** Opens `route`; `replace` swaps the current history entry instead of adding one. */
  go(route: Route, replace?: boolean): void;
  /** The URL of a route, for real links (open in a new tab, copy link). */
  href(route: Route): string;
  signOut(): void;
  openSettings(): void;
}

/** What every screen of a signed-in account may use. */
export interface AppContext {
  session: Session;
  stores: Stores;
  nav: Navigation;
  outbox: Outbox;
}

export const AppContextProvider = createContext<AppContext | undefined>(undefined);

/** The signed-in app's context; only screens under a signed-in account may call it. */
export function useApp(): AppContext {
  const app = useContext(AppContextProvider);
  if (!app) throw new Error('useApp() outside a signed-in account');
  return app;
}

/** The navigation alone: also there before sign-in (the sign-in screen, the settings). */
export const NavigationProvider = createContext<Navigation | undefined>(undefined);

export function useNavigation(): Navigation {
  const nav = useContext(NavigationProvider);
  if (!nav) throw new Error('useNavigation() outside the app');
  return nav;
}
