import type { App, Session, Shell } from 'electron';

/**
 * The renderer's Content Security Policy. Scripts only from the app itself and no eval, so
 * markdown or a hostile server cannot run code in a window that holds account tokens. The
 * renderer talks to whatever Folio server the user signs into (REST and WebSocket sync) and
 * shows its images, hence any http(s)/ws(s) origin for connections and images. Inline styles
 * stay allowed: CodeMirror and the preview set `style` attributes; styles cannot run code.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: http: https:",
    "font-src 'self' data:",
    "connect-src 'self' http: https: ws: wss:",
    "worker-src 'self' blob:",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** True when `url` is on one of the app's own origins (the packaged app's scheme, or the dev server). */
export function isAppUrl(url: string, appOrigins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    // Not `parsed.origin`: Node's URL (the main process) says "null" for custom schemes such as
    // folio-app:, which Chromium treats as standard. Scheme + host is the origin for both.
    return appOrigins.includes(`${parsed.protocol}//${parsed.host}`);
  } catch {
    return false;
  }
}

/** Links the system browser may open: web pages and mail, never file:, javascript: or custom schemes that launch programs. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Permissions the renderer gets: only writing to the clipboard (the editor's "copy link").
 * Camera, microphone, geolocation, notifications etc. are refused: a documentation editor
 * needs none, and refusing them blunts a compromised renderer.
 */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'clipboard-sanitized-write';
}

/** Resource types whose responses are documents and so carry the CSP. */
const DOCUMENT_TYPES = new Set(['mainFrame', 'subFrame']);

/**
 * Locks down every web contents the app creates (AFFiNE's security-restrictions, loaded
 * before any window): no navigation away from the app, no new windows (external links go
 * to the system browser), no <webview>, no permissions, CSP on every document response.
 */
export function applySecurityRestrictions(options: {
  app: Pick<App, 'on'>;
  session: Session;
  shell: Pick<Shell, 'openExternal'>;
  appOrigins: readonly string[];
}): void {
  const { app, session, shell, appOrigins } = options;
  const openExternally = (url: string): void => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
  };

  session.setPermissionRequestHandler((_contents, permission, callback) => callback(isPermissionAllowed(permission)));
  session.setPermissionCheckHandler((_contents, permission) => isPermissionAllowed(permission));
  // Documents loaded over http (the dev server): add the CSP header. The packaged app's own
  // scheme sets it in its protocol handler (app-protocol.ts), which this hook does not see.
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!DOCUMENT_TYPES.has(details.resourceType)) return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy()] } });
  });

  app.on('web-contents-created', (_event, contents) => {
    const stayInApp = (event: { preventDefault(): void }, url: string): void => {
      if (isAppUrl(url, appOrigins)) return;
      event.preventDefault();
      openExternally(url);
    };
    contents.on('will-navigate', stayInApp);
    contents.on('will-redirect', stayInApp);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      openExternally(url);
      return { action: 'deny' };
    });
  });
}

/** True when an IPC call comes from the app's own top-level page, not from a frame or page it was tricked into loading. */
export function isTrustedSender(
  event: { senderFrame: { url: string; parent: unknown } | null },
  appOrigins: readonly string[],
): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url, appOrigins);
}
