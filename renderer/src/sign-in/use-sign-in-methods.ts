import { useEffect, useState } from 'preact/hooks';
import { normalizeServerUrl } from '../api/client';
import { fetchMethods, TOKEN_ONLY, type SignInMethods } from './auth-api';

/** Where the methods of a server are: asked for, or known (token only when the server cannot be asked). */
export type MethodsState = { status: 'loading' } | { status: 'ready'; methods: SignInMethods; serverUrl: string };

/**
 * The sign-in methods of the server at `serverUrl` (GET /auth/methods), asked again whenever it
 * changes; an older answer never replaces a newer one (its request is aborted). Undefined: do not
 * ask yet. A URL that does not parse, or a server that does not answer, offers tokens only.
 */
export function useSignInMethods(serverUrl: string | undefined): MethodsState {
  const [state, setState] = useState<MethodsState>({ status: 'loading' });
  useEffect(() => {
    if (serverUrl === undefined) return;
    let url: string;
    try {
      url = normalizeServerUrl(serverUrl);
    } catch {
      setState({ status: 'ready', methods: TOKEN_ONLY, serverUrl });
      return;
    }
    setState({ status: 'loading' });
    const request = new AbortController();
    fetchMethods(url, request.signal).then(
      (methods) => !request.signal.aborted && setState({ status: 'ready', methods, serverUrl: url }),
      () => !request.signal.aborted && setState({ status: 'ready', methods: TOKEN_ONLY, serverUrl: url }),
    );
    return () => request.abort();
  }, [serverUrl]);
  return state;
}
