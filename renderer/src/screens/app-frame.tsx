import type { ReadonlySignal } from '@preact/signals';
import type { Route } from '../routes';
import { OrgFrame } from './org-frame';
import { AppContextProvider, NavigationProvider, type AppContext, type Navigation } from './context';
import { LazyScreen } from './lazy-screen';
import { screenOf, SCREENS } from './registry';
import { ShellProvider, type Shell } from './shell-context';
import { SpaceScreen } from './space-screen';
import { TopBar } from '../ui/kit/top-bar';

const SIGN_IN = SCREENS.find((entry) => entry.id === 'sign-in')!;

/**
 * Dispatch: the registry row of the route, drawn in its frame, under the providers every screen
 * reads (navigation, the shell, the signed-in account's context). Signed out, any screen that is
 * not public shows the sign-in form, which opens the wanted screen once signed in.
 */
export function AppFrame(props: {
  route: ReadonlySignal<Route>;
  context: ReadonlySignal<AppContext | undefined>;
  shell: () => Shell;
  nav: Navigation;
}) {
  const route = props.route.value;
  const context = props.context.value;
  const entry = screenOf(route);
  let screen;
  if (!context && !entry?.public) screen = <LazyScreen entry={SIGN_IN} route={route} />;
  else if (route.view === 'space') screen = <SpaceScreen route={route} />;
  else if (!entry) screen = null;
  else if (entry.frame === 'org' || entry.frame === 'site')
    screen = (
      <OrgFrame route={route} entry={entry}>
        <LazyScreen entry={entry} route={route} />
      </OrgFrame>
    );
  else if (entry.frame === 'account')
    screen = (
      <div class="org-screen">
        <TopBar
          back={{ to: { view: 'picker' }, label: 'Spaces', title: 'All spaces' }}
          active={entry.id === 'account' ? 'account' : undefined}
        />
        <div class="org-layout org-layout-single">
          <main class="org-main">
            <LazyScreen entry={entry} route={route} />
          </main>
        </div>
      </div>
    );
  else screen = <LazyScreen entry={entry} route={route} />;
  return (
    <NavigationProvider.Provider value={props.nav}>
      <ShellProvider.Provider value={props.shell()}>
        <AppContextProvider.Provider value={context}>
          {/* A new account starts with fresh screens (no state of the previous account's). */}
          <div class="app-root" key={context?.session.account.serverUrl ?? 'signed-out'}>
            {screen}
          </div>
        </AppContextProvider.Provider>
      </ShellProvider.Provider>
    </NavigationProvider.Provider>
  );
}
