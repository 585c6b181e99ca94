import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Route } from '../routes';
import type { Session } from '../session';
import type { SignInTarget } from '../sign-in/return-to';

/**
 * What the account screens (sign-in, settings) ask of the app shell itself: the session they
 * start, switch or end, and where "back" goes.
 */
export interface Shell {
  /** The session in use, if any. */
  session: Session | undefined;
  /** A session was started (sign-in form, device flow, email link). */
  signedIn(session: Session): void;
  switchAccount(serverUrl: string): Promise<void>;
  removeAccount(serverUrl: string): Promise<void>;
  signOut(): Promise<void>;
  /** Where the settings' "Back" returns to. */
  back(): void;
  /** The sign-in form's hints: a server a followed link named, where to return, why sign in. */
  signIn: SignInTarget & { initialServer?: string; note?: string };
  /** The route the user asked for before signing in (opened once signed in). */
  wanted: Route;
}

export const ShellProvider = createContext<Shell | undefined>(undefined);

export function useShell(): Shell {
  const shell = useContext(ShellProvider);
  if (!shell) throw new Error('useShell() outside the app');
  return shell;
}
