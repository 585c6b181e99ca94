import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { browserSignInHooks } from '../platform';
import { signIn, type Session } from '../session';
import { signInThroughBrowser, type BrowserMethod } from './device-flow';

/**
 * The desktop app's sign-in through the system browser, as a hook: `start` opens the browser and
 * waits for the loopback callback; `cancel` gives up; leaving the screen gives up too (the wait
 * is aborted on unmount, so a late approval in the browser signs nobody in behind another screen).
 */
export function useBrowserSignIn(
  done: (session: Session) => void,
  fail: (message: string) => void,
): { waiting: boolean; start(serverUrl: string, method: BrowserMethod): void; cancel(): void } {
  const [waiting, setWaiting] = useState(false);
  const current = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => current.current?.abort(), []);
  const start = (serverUrl: string, method: BrowserMethod) => {
    const hooks = browserSignInHooks();
    if (!hooks) return;
    current.current?.abort();
    const attempt = new AbortController();
    current.current = attempt;
    setWaiting(true);
    signInThroughBrowser(serverUrl, method, hooks, deviceName(), attempt.signal)
      .then((device) => signIn(serverUrl, device.token))
      .then(
        (session) => {
          if (attempt.signal.aborted) return;
          setWaiting(false);
          done(session);
        },
        (err: unknown) => {
          if (attempt.signal.aborted) return;
          setWaiting(false);
          fail(`Could not sign in: ${describeError(err)}`);
        },
      );
  };
  const cancel = () => {
    current.current?.abort();
    setWaiting(false);
  };
  return { waiting, start, cancel };
}

/** The name the server shows for this computer ("Folio desktop on <name>") in "Sessions and devices". */
function deviceName(): string {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return (nav.userAgentData?.platform || navigator.platform || 'this computer').slice(0, 100);
}
