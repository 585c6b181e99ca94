import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError, normalizeServerUrl } from '../api/client';
import { browserSignInHooks, platform } from '../platform';
import { useNavigation } from '../screens/context';
import { useShell } from '../screens/shell-context';
import { cookieSession, servingServerUrl, signIn } from '../session';
import { oidcStartUrl, type SignInMethods } from '../sign-in/auth-api';
import type { BrowserMethod } from '../sign-in/device-flow';
import { EmailLinkPanel } from '../sign-in/email-link';
import { useBrowserSignIn } from '../sign-in/use-browser-sign-in';
import { useSignInMethods } from '../sign-in/use-sign-in-methods';
import { useWindowTitle } from '../ui/kit/hooks';
import { BrowserWaiting, defaultServerUrl, MethodButton, ServerField, SsoPanel, TokenSection } from './sign-in';

/**
 * How this screen signs people in:
 *  - served: the web app on its own server — SSO, OpenID Connect and email links end in the
 *    server's session cookie; no server field (a token may still name another server);
 *  - desktop: a server URL first, then each method in the system browser (device flow);
 *  - static: the app loaded from a plain host — only a token (a cookie would belong to that host).
 */
type Mode = 'served' | 'desktop' | 'static';

/** How long typing in the server field pauses before its methods are asked for. */
const SERVER_TYPING_MS = 400;

/**
 * The sign-in screen: the methods the server has configured (GET /auth/methods), and pasting an
 * API token (kept for scripts and servers without other methods). A token, the desktop's device
 * flow or an email link followed here end in `shell.signedIn`; SSO and OpenID Connect leave the
 * page and come back signed in.
 */
export default function SignInScreen() {
  const shell = useShell();
  const nav = useNavigation();
  useWindowTitle('Sign in');
  // What the shell said when the screen opened (it is asked again on every render of the app).
  const [{ own, mode, next, note, method: startMethod, initialServer }] = useState(() => {
    const target = shell.signIn;
    const own = servingServerUrl();
    const mode: Mode =
      own && (!target.initialServer || target.initialServer === own)
        ? 'served'
        : browserSignInHooks() && platform().platform === 'desktop'
          ? 'desktop'
          : 'static';
    return { ...target, own, mode, next: target.next ?? '/app/' };
  });

  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'info' }>({ text: '', tone: 'error' });
  /** Shows a message under the form: an error (red) unless `tone` says it is progress. */
  const say = (text: string, tone: 'error' | 'info' = 'error') => setMessage({ text, tone });

  const [server, setServer] = useState(initialServer ?? defaultServerUrl());
  /** On the web app the server field hides until "Sign in to another server". */
  const [serverShown, setServerShown] = useState(mode !== 'served');
  const serverValue = mode === 'served' && !serverShown ? own! : server;

  // Sent here by a page that needs a session (the desktop app's authorization page): a browser
  // already signed in goes straight on.
  const [checked, setChecked] = useState(!(mode === 'served' && shell.signIn.next));
  useEffect(() => {
    if (checked) return;
    let live = true;
    cookieSession(own!).then(
      (session) => (session ? location.assign(next) : live && setChecked(true)),
      () => live && setChecked(true),
    );
    return () => {
      live = false;
    };
  }, []);

  // The methods are the serving server's on the web app; elsewhere the typed server's, asked
  // once typing pauses.
  const [methodsUrl, setMethodsUrl] = useState(mode === 'served' ? own! : server);
  useEffect(() => {
    if (mode === 'served') return;
    const timer = setTimeout(() => setMethodsUrl(server), SERVER_TYPING_MS);
    return () => clearTimeout(timer);
  }, [server]);
  const methodsState = useSignInMethods(checked ? methodsUrl : undefined);
  const methods = methodsState.status === 'ready' ? methodsState.methods : undefined;
  const offered = methods ? offeredMethods(methods) : [];
  // With nothing else to offer here, the token form is the screen: open, without its toggle.
  const tokenOnly = methods !== undefined && (offered.length === 0 || mode === 'static');

  const [tokenOpen, setTokenOpen] = useState(false);
  const [panel, setPanel] = useState<'sso' | 'email' | undefined>();
  const browser = useBrowserSignIn(
    (session) => shell.signedIn(session),
    (text) => say(text),
  );

  const choose = (method: BrowserMethod, known: SignInMethods) => {
    say('');
    setPanel(undefined);
    if (mode === 'desktop') return browser.start(normalizeServerUrl(methodsUrl), method);
    if (method === 'oidc') return location.assign(oidcStartUrl(own!, next, known.oidc?.startURL));
    setPanel(method);
  };

  // Once the methods are known: a token-only server opens the token form, and a method the link
  // named (`/app/sign-in?method=`, the desktop's device flow) starts at once.
  const started = useRef(false);
  useEffect(() => {
    if (!methods) return;
    if (tokenOnly) setTokenOpen(true);
    if (startMethod && mode === 'served' && !started.current && offered.some((o) => o.method === startMethod)) {
      started.current = true;
      choose(startMethod, methods);
    }
  }, [methods]);

  const [submitting, setSubmitting] = useState(false);
  const signInWithToken = (token: string) => {
    setSubmitting(true);
    say('Signing in…', 'info');
    signIn(serverValue, token).then(
      (session) => {
        say('');
        shell.signedIn(session);
      },
      (err: unknown) => {
        setSubmitting(false);
        say(`Could not sign in: ${describeError(err)}`);
      },
    );
  };

  const serverField = (focus: boolean) => <ServerField value={server} onInput={setServer} focus={focus} />;
  return (
    <main class="centered sign-in-page" data-testid="sign-in-screen">
      <div class="sign-in card">
        <div class="sign-in-mark" aria-hidden="true" />
        <h1>Sign in to Folio</h1>
        <p class="muted sign-in-lede">
          {mode === 'served' ? `on ${new URL(own!).host}` : 'Connect to your team’s Folio server.'}
        </p>
        {note && (
          <p class="form-note" data-testid="sign-in-note">
            {note}
          </p>
        )}
        {mode !== 'served' && serverField(false)}
        <div
          class="sign-in-methods"
          data-testid="sign-in-methods"
          aria-live="polite"
          data-methods={methods ? offered.map((o) => o.method).join(' ') : undefined}
        >
          {!checked ? (
            <p class="state state-loading" role="status">
              Checking your session…
            </p>
          ) : !methods ? (
            <p class="state state-loading" role="status">
              Loading sign-in options…
            </p>
          ) : tokenOnly ? (
            offered.length > 0 && (
              <p class="muted sign-in-elsewhere">
                This server also offers single sign-on and email links:{' '}
                <a
                  href={`${methodsState.status === 'ready' ? methodsState.serverUrl : ''}/app/`}
                  target="_blank"
                  rel="noopener"
                >
                  open its web app
                </a>
                .
              </p>
            )
          ) : (
            <>
              {offered.map(({ method, label }) => (
                <MethodButton
                  key={method}
                  method={method}
                  label={label}
                  expanded={panel === method}
                  onChoose={(chosen) => choose(chosen, methods)}
                />
              ))}
              <div class="sign-in-panel-slot">
                {panel === 'sso' && <SsoPanel serverUrl={own!} next={next} />}
                {panel === 'email' && <EmailLinkPanel serverUrl={own!} next={next} say={say} />}
                {browser.waiting && <BrowserWaiting cancel={browser.cancel} />}
              </div>
              <div class="sign-in-divider" role="separator">
                <span>or</span>
              </div>
            </>
          )}
        </div>
        <TokenSection
          open={tokenOpen || tokenOnly}
          onOpen={setTokenOpen}
          tokenOnly={tokenOnly}
          submitting={submitting}
          onSubmit={signInWithToken}
          another={mode === 'served' && !serverShown ? () => setServerShown(true) : undefined}
        >
          {mode === 'served' && serverShown && serverField(true)}
        </TokenSection>
        <p class="form-message" role="alert" data-testid="sign-in-error" data-tone={message.tone}>
          {message.text}
        </p>
      </div>
      <p class="muted sign-in-footer">
        <button type="button" class="link" data-testid="open-settings" onClick={() => nav.openSettings()}>
          Settings
        </button>{' '}
        — theme and saved accounts
      </p>
    </main>
  );
}

/** The buttons a server's methods make, in the order they are offered. */
function offeredMethods(methods: SignInMethods): { method: BrowserMethod; label: string }[] {
  const offered: { method: BrowserMethod; label: string }[] = [];
  if (methods.sso) offered.push({ method: 'sso', label: 'Continue with SSO' });
  if (methods.oidc) offered.push({ method: 'oidc', label: `Continue with ${methods.oidc.label}` });
  if (methods.email) offered.push({ method: 'email', label: 'Email me a sign-in link' });
  return offered;
}
