import type { ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { Route } from '../../routes';
import { AppContextProvider, useNavigation } from '../../screens/context';
import { Icon } from './icon';
import { Link } from './link';

/**
 * The app's one top bar: where "back" goes, what this screen is, the screen's own controls, and
 * the account's (account, settings, sign out) — the same on every screen.
 */
export function TopBar(props: {
  /** A back link (e.g. "Spaces"); none on the picker. */
  back?: { to: Route; label: string; title?: string };
  /** The screen's title (a heading). */
  title?: ComponentChildren;
  /** Controls between the title and the account's (search, presence, connection status…). */
  children?: ComponentChildren;
  /** Which of the account's screens is open. */
  active?: 'account' | 'settings';
}) {
  const app = useContext(AppContextProvider);
  const nav = useNavigation();
  const name = app?.session.displayName ?? '';
  return (
    <header class="topbar">
      {props.back && (
        <>
          <Link
            to={props.back.to}
            class="ghost org-back"
            data-testid="to-picker"
            title={props.back.title ?? props.back.label}
          >
            <Icon name="arrow-left" />
            <span class="hide-narrow">{props.back.label}</span>
          </Link>
          {props.title && <span class="topbar-divider" aria-hidden="true" />}
        </>
      )}
      {props.title}
      <span class="spacer" />
      {props.children}
      {app && (
        <Link
          to={{ view: 'account' }}
          class="org-top-link"
          data-testid="open-account"
          aria-current={props.active === 'account' ? 'page' : undefined}
        >
          Account
        </Link>
      )}
      <button
        type="button"
        class="icon-button"
        title="Settings"
        aria-label="Settings"
        data-testid="open-settings"
        aria-current={props.active === 'settings' ? 'page' : undefined}
        onClick={() => nav.openSettings()}
      >
        <Icon name="settings" />
      </button>
      {app && (
        <button
          type="button"
          class="ghost"
          title={`Sign out ${name}`}
          data-testid="sign-out"
          onClick={() => nav.signOut()}
        >
          {/* The initial is CSS-generated (data-initial), so the button's name is its text: "Sign out <name>". */}
          <span class="avatar-initial" aria-hidden="true" data-initial={(name.trim()[0] ?? '?').toUpperCase()} />
          <span class="hide-narrow">Sign out</span>
          <span class="sr-only"> {name}</span>
          <Icon name="log-out" size={14} />
        </button>
      )}
    </header>
  );
}
