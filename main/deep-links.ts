/**
 * `folio://` links handed to the desktop app by the operating system. Main only recognises and
 * forwards them (over {@link OPEN_URL_CHANNEL}); the renderer maps them to screens with the same
 * route grammar as the web app (renderer/src/routes.ts, parseAppLink).
 *
 * They arrive three ways: macOS sends `open-url`; Windows and Linux start the app with the link in
 * argv — as a first launch, or (the single-instance lock) as `second-instance` of the running app.
 */

/** The scheme registered with `app.setAsDefaultProtocolClient`. */
export const DEEP_LINK_SCHEME = 'folio';

/** Main -> renderer: a `folio://` link to open. */
export const OPEN_URL_CHANNEL = 'folio:open-url';

/** Longest link forwarded: anything longer is not one of ours (ids and page paths are short). */
const MAX_LINK_LENGTH = 2048;

/** Whether `value` is a `folio://` link worth forwarding. */
export function isDeepLink(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > MAX_LINK_LENGTH) return false;
  try {
    return new URL(value).protocol === `${DEEP_LINK_SCHEME}:`;
  } catch {
    return false;
  }
}

/** The `folio://` link in a command line (Windows/Linux pass it as an argument), if any. */
export function deepLinkInArgv(argv: readonly string[]): string | undefined {
  return argv.find(isDeepLink);
}

/**
 * Holds links until the window can take them: one that arrives at launch comes before the window
 * exists. `deliver` is called with the link once a sender is attached, or at once if one is.
 */
export class DeepLinkQueue {
  private pending: string | undefined;
  private sender: ((url: string) => void) | undefined;

  /** A link arrived (the last one wins: the user clicked it last). */
  push(url: string): void {
    if (!isDeepLink(url)) return;
    if (this.sender) this.sender(url);
    else this.pending = url;
  }

  /** The window is ready: send what waited, and everything from now on. */
  attach(sender: (url: string) => void): void {
    this.sender = sender;
    const waiting = this.pending;
    this.pending = undefined;
    if (waiting) sender(waiting);
  }

  /** The window closed: hold links again until the next one is ready. */
  detach(): void {
    this.sender = undefined;
  }
}
