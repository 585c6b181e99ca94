import { extname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Net, Protocol, CustomScheme } from 'electron';
import { contentSecurityPolicy } from './security';

/**
 * The packaged renderer is served from `folio-app://app/` rather than file://: a real origin
 * for the CSP's 'self', for IndexedDB (offline documents) and for the navigation checks,
 * and a response we can put the CSP header on.
 */
export const APP_SCHEME = 'folio-app';

/** The renderer's origin in the packaged app. */
export const APP_ORIGIN = `${APP_SCHEME}://app`;

/** Registered before `app` is ready: a standard, secure scheme that may use fetch. */
export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true },
};

/**
 * The file under `rootDir` that answers `requestUrl`, or undefined. Paths that would leave
 * `rootDir` (`..`, encoded or not) are refused; a path without an extension is a client-side
 * route and gets index.html.
 */
export function resolveAppAsset(rootDir: string, requestUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== 'app') return undefined;
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (pathname.includes('\0')) return undefined;
  const root = resolve(rootDir);
  const file = resolve(root, `.${pathname}`);
  if (file !== root && !file.startsWith(root + sep)) return undefined;
  if (file === root || extname(file) === '') return resolve(root, 'index.html');
  return file;
}

/** Serves `rootDir` on {@link APP_SCHEME}, adding the CSP to every response. */
export function registerAppProtocol(
  protocol: Pick<Protocol, 'handle'>,
  net: Pick<Net, 'fetch'>,
  rootDir: string,
): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppAsset(rootDir, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    const response = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', contentSecurityPolicy());
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}
