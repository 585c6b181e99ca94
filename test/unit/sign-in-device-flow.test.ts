import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserSignIn } from '../../main/browser-sign-in';
import {
  authorizePath,
  base64url,
  browserSignInUrl,
  codeFromCallback,
  createPkce,
  pkceChallenge,
  signInThroughBrowser,
  type BrowserSignInHooks,
} from '../../renderer/src/sign-in/device-flow';
import { oidcStartUrl, safeNextPath, ssoStartUrl } from '../../renderer/src/sign-in/auth-api';
import { signInTarget } from '../../renderer/src/sign-in/return-to';
import { describeUserAgent } from '../../renderer/src/sign-in/sessions-list';

describe('PKCE (RFC 7636)', () => {
  it('derives the S256 challenge of the RFC’s own example', async () => {
    // RFC 7636 appendix B.
    expect(await pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh 43-character URL-safe verifier each time, with its challenge', async () => {
    const a = await createPkce();
    const b = await createPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(await pkceChallenge(a.verifier));
    expect(base64url(new Uint8Array([251, 255]))).toBe('-_8');
  });
});

describe('the authorization request and its callback', () => {
  it('names the loopback redirect, state and challenge, and goes through the web app to start a method', () => {
    const path = authorizePath({
      redirectUri: 'http://127.0.0.1:5123/callback',
      state: 'st',
      challenge: 'ch',
      deviceName: 'Linux x86_64',
    });
    const url = new URL(path, 'http://docs.example');
    expect(url.pathname).toBe('/auth/device/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      redirect_uri: 'http://127.0.0.1:5123/callback',
      state: 'st',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
      device_name: 'Linux x86_64',
    });
    expect(browserSignInUrl('http://docs.example', path)).toBe(`http://docs.example${path}`);
    const viaApp = new URL(browserSignInUrl('http://docs.example', path, 'sso'));
    expect(viaApp.pathname).toBe('/app/sign-in');
    expect(viaApp.searchParams.get('next')).toBe(path);
    expect(viaApp.searchParams.get('method')).toBe('sso');
  });

  it('takes the code only from a callback with this sign-in’s state', () => {
    expect(codeFromCallback({ code: 'c1', state: 's1' }, 's1')).toBe('c1');
    expect(() => codeFromCallback({ code: 'c1', state: 'other' }, 's1')).toThrow(/state mismatch/);
    expect(() => codeFromCallback({ state: 's1', error: 'access_denied' }, 's1')).toThrow(/declined/);
    expect(() => codeFromCallback({ state: 's1' }, 's1')).toThrow(/no sign-in code/);
  });
});

describe('giving a browser sign-in up', () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('rejects at once when aborted, and never exchanges a code the browser sends later', async () => {
    const exchanges: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      exchanges.push(url);
      return new Response('{}', { status: 500 });
    });
    let callback: ((query: Record<string, string>) => void) | undefined;
    let opened = '';
    const hooks: BrowserSignInHooks = {
      listen: async () => ({ id: 'one', redirectUri: 'http://127.0.0.1:1/callback' }),
      openAndWait: (_id, url) => {
        opened = url;
        return new Promise((resolve) => (callback = resolve));
      },
    };
    const leaving = new AbortController();
    const flow = signInThroughBrowser('http://docs.example', 'email', hooks, 'Test bench', leaving.signal);
    await expect.poll(() => callback).toBeDefined();
    leaving.abort();
    await expect(flow).rejects.toMatchObject({ name: 'AbortError' });
    // The browser answers after all, with this sign-in's own state: nothing is exchanged.
    const authorize = new URL(new URL(opened).searchParams.get('next')!, 'http://docs.example');
    callback!({ code: 'late', state: authorize.searchParams.get('state')! });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(exchanges).toEqual([]);
  });

  it('does not start when already aborted', async () => {
    const hooks: BrowserSignInHooks = {
      listen: () => Promise.reject(new Error('should not listen')),
      openAndWait: () => Promise.reject(new Error('should not open')),
    };
    await expect(
      signInThroughBrowser('http://docs.example', undefined, hooks, 'Test bench', AbortSignal.abort()),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the loopback listener (main/browser-sign-in.ts)', () => {
  const opened: string[] = [];
  let listener: BrowserSignIn | undefined;
  afterEach(() => void (opened.length = 0));

  it('opens the browser and resolves with the query the browser is redirected with, then stops listening', async () => {
    listener = new BrowserSignIn(async (url) => void opened.push(url));
    const { id, redirectUri } = await listener.listen();
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const answer = listener.openAndWait(id, 'http://docs.example/auth/device/authorize?x=1');
    await expect.poll(() => opened).toEqual(['http://docs.example/auth/device/authorize?x=1']);
    expect((await fetch(redirectUri.replace('/callback', '/favicon.ico'))).status).toBe(404);
    const page = await fetch(`${redirectUri}?code=abc&state=xyz`);
    expect(await page.text()).toContain('You can close this tab');
    expect(await answer).toEqual({ code: 'abc', state: 'xyz' });
    await expect(fetch(`${redirectUri}?code=again`)).rejects.toThrow();
  });

  it('refuses to open anything but an http(s) address, and an unknown id', async () => {
    listener = new BrowserSignIn(async (url) => void opened.push(url));
    const { id } = await listener.listen();
    await expect(listener.openAndWait(id, 'file:///etc/passwd')).rejects.toThrow(/http\(s\) URL/);
    await expect(listener.openAndWait('nope', 'http://docs.example/')).rejects.toThrow(/No sign-in/);
    expect(opened).toEqual([]);
  });

  it('gives up after its timeout', async () => {
    listener = new BrowserSignIn(async () => undefined, 20);
    const { id } = await listener.listen();
    await expect(listener.openAndWait(id, 'http://docs.example/')).rejects.toThrow(/took too long/);
  });
});

describe('where a browser sign-in returns to', () => {
  it('accepts only paths on this server as next', () => {
    expect(safeNextPath('/auth/device/authorize?x=1')).toBe('/auth/device/authorize?x=1');
    for (const bad of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'app/', '/a\nb', '', null])
      expect(safeNextPath(bad), String(bad)).toBeUndefined();
  });

  it('reads next and method from /app/sign-in, and returns other screens to themselves', () => {
    const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });
    expect(signInTarget(at('/app/sign-in', '?next=%2Fauth%2Fdevice%2Fauthorize%3Fa%3D1&method=oidc'), true)).toEqual({
      next: '/auth/device/authorize?a=1',
      method: 'oidc',
    });
    expect(signInTarget(at('/app/sign-in', '?next=https://evil.example&method=magic'), true)).toEqual({});
    expect(signInTarget(at('/app/s/abc/guide', '', '#install'), false)).toEqual({ next: '/app/s/abc/guide#install' });
  });

  it('builds the SSO and OpenID Connect start addresses with next', () => {
    expect(ssoStartUrl('http://d.example', 'a+b@corp.example', '/app/')).toBe(
      'http://d.example/auth/sso/start?email=a%2Bb%40corp.example&next=%2Fapp%2F',
    );
    expect(oidcStartUrl('http://d.example', '/app/x', 'http://d.example/auth/oidc/start')).toBe(
      'http://d.example/auth/oidc/start?next=%2Fapp%2Fx',
    );
  });
});

describe('sessions list', () => {
  it('names browsers and apps from their User-Agent', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Gecko/20100101 Firefox/133.0')).toBe(
      'Firefox on macOS',
    );
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0) Chrome/130 Electron/33.0.0 Safari/537.36')).toBe(
      'Folio desktop on Windows',
    );
    expect(describeUserAgent(undefined)).toBeUndefined();
  });
});
