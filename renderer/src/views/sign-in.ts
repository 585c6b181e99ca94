import { describeError, normalizeServerUrl } from '../api/client';
import { browserSignInHooks, platform } from '../platform';
import { cookieSession, servingServerUrl, signIn, type Session } from '../session';
import { fetchMethods, oidcStartUrl, ssoStartUrl, TOKEN_ONLY, type SignInMethods } from '../sign-in/auth-api';
import { signInThroughBrowser, type BrowserMethod } from '../sign-in/device-flow';
import { emailLinkPanel } from '../sign-in/email-link';
import { h, replace } from '../ui/dom';
import { icon, type IconName } from '../ui/icons';

/** The server URL to suggest: this server when the app is served by one (/app/), else a local default. */
export function defaultServerUrl(): string {
  return servingServerUrl() ?? 'http://127.0.0.1:8080';
}

/** What the sign-in screen is told by the app. */
export interface SignInOptions {
  openSettings?: () => void;
  initialServer?: string;
  note?: string;
  /** Where a browser sign-in continues (a path on this server: `/app/sign-in?next=`, or the link followed). */
  next?: string;
  /** A method to start at once: the desktop app opens `/app/sign-in?method=` in the browser. */
  method?: BrowserMethod;
}

/**
 * How this screen signs people in:
 *  - served: the web app on its own server — SSO, OpenID Connect and email links end in the
 *    server's session cookie; no server field (a token may still name another server);
 *  - desktop: a server URL first, then each method in the system browser (device flow);
 *  - static: the app loaded from a plain host — only a token (a cookie would belong to that host).
 */
type Mode = 'served' | 'desktop' | 'static';

const METHOD_ICONS: Record<BrowserMethod, IconName> = { sso: 'building', oidc: 'shield', email: 'mail' };

/**
 * The sign-in screen: the methods the server has configured (GET /auth/methods), and pasting an
 * API token (kept for scripts and servers without other methods). Resolves through `done` once a
 * token is accepted; browser sign-ins leave the page and come back signed in.
 */
export function signInView(done: (session: Session) => void, options: SignInOptions = {}): HTMLElement {
  const own = servingServerUrl();
  const mode: Mode =
    own && (!options.initialServer || options.initialServer === own)
      ? 'served'
      : browserSignInHooks() && platform().platform === 'desktop'
        ? 'desktop'
        : 'static';
  const next = options.next ?? '/app/';
  const message = h('p', { class: 'form-message', role: 'alert', 'data-testid': 'sign-in-error' });
  /** Shows a message under the form: an error (red) unless `tone` says it is progress. */
  const say = (text: string, tone: 'error' | 'info' = 'error'): void => {
    message.textContent = text;
    message.dataset.tone = tone;
  };

  const server = h('input', {
    name: 'server',
    type: 'url',
    value: options.initialServer ?? defaultServerUrl(),
    required: true,
    autocomplete: 'url',
    spellcheck: 'false',
    'data-testid': 'server-url',
  });
  const serverLabel = h('label', {}, 'Server URL', server);
  const serverValue = (): string => (mode === 'served' && serverLabel.hidden ? own! : server.value);

  const methodsArea = h('div', { class: 'sign-in-methods', 'data-testid': 'sign-in-methods', 'aria-live': 'polite' });
  const panel = h('div', { class: 'sign-in-panel-slot' });
  const tokenSection = tokenForm(server, serverLabel, mode, serverValue, say, done);

  const showMethods = (methods: SignInMethods): void => {
    const offered: { method: BrowserMethod; label: string }[] = [];
    if (methods.sso) offered.push({ method: 'sso', label: 'Continue with SSO' });
    if (methods.oidc) offered.push({ method: 'oidc', label: `Continue with ${methods.oidc.label}` });
    if (methods.email) offered.push({ method: 'email', label: 'Email me a sign-in link' });
    methodsArea.dataset.methods = offered.map((o) => o.method).join(' ');
    // With nothing else to offer here, the token form is the screen: open, without its toggle.
    const tokenOnly = offered.length === 0 || mode === 'static';
    tokenSection.open = tokenOnly || tokenSection.open;
    tokenSection.classList.toggle('sign-in-token-only', tokenOnly);
    if (tokenOnly) {
      replace(
        methodsArea,
        offered.length > 0 &&
          h(
            'p',
            { class: 'muted sign-in-elsewhere' },
            'This server also offers single sign-on and email links: ',
            h('a', { href: `${serverValue()}/app/`, target: '_blank', rel: 'noopener' }, 'open its web app'),
            '.',
          ),
      );
      return;
    }
    const buttons = offered.map(({ method, label }) => {
      const button = h(
        'button',
        { type: 'button', class: 'sign-in-method', 'data-testid': `method-${method}`, 'aria-expanded': 'false' },
        icon(METHOD_ICONS[method], { size: 18 }),
        h('span', {}, label),
      );
      button.addEventListener('click', () => {
        say('');
        for (const other of Array.from(methodsArea.querySelectorAll('.sign-in-method')))
          other.setAttribute('aria-expanded', 'false');
        if (mode === 'desktop') return void startInBrowser(method);
        if (method === 'oidc') return location.assign(oidcStartUrl(own!, next, methods.oidc?.startURL));
        button.setAttribute('aria-expanded', 'true');
        replace(panel, method === 'sso' ? ssoPanel(own!, next) : emailLinkPanel(own!, next, say));
      });
      return button;
    });
    replace(
      methodsArea,
      ...buttons,
      panel,
      h('div', { class: 'sign-in-divider', role: 'separator' }, h('span', {}, 'or')),
    );
    if (options.method && mode === 'served') {
      const chosen = buttons.find((b) => b.dataset.testid === `method-${options.method}`);
      chosen?.click();
    }
  };

  /** Desktop: the method runs in the system browser; this window waits for the loopback callback. */
  let attempt = 0;
  const startInBrowser = async (method: BrowserMethod): Promise<void> => {
    const mine = ++attempt;
    const url = serverValue();
    const cancel = h(
      'button',
      { type: 'button', class: 'link', 'data-testid': 'browser-cancel', onclick: () => (attempt++, replace(panel)) },
      'Cancel',
    );
    replace(
      panel,
      h(
        'div',
        { class: 'sign-in-waiting', role: 'status', 'data-testid': 'browser-waiting' },
        icon('external-link', { size: 18 }),
        h('p', {}, 'Continue in your browser. This window signs in once you approve it there.'),
        cancel,
      ),
    );
    try {
      const device = await signInThroughBrowser(url, method, browserSignInHooks()!, deviceName());
      if (mine !== attempt) return;
      done(await signIn(url, device.token));
    } catch (err) {
      if (mine !== attempt) return;
      replace(panel);
      say(`Could not sign in: ${describeError(err)}`);
    }
  };

  /** Loads the server's methods (again when the URL changes on desktop). */
  let methodsLoad = 0;
  const loadMethods = (): void => {
    const mine = ++methodsLoad;
    replace(methodsArea, h('p', { class: 'state state-loading', role: 'status' }, 'Loading sign-in options…'));
    let url: string;
    try {
      url = normalizeServerUrl(serverValue());
    } catch {
      return showMethods(TOKEN_ONLY);
    }
    fetchMethods(url).then(
      (methods) => mine === methodsLoad && showMethods(methods),
      () => mine === methodsLoad && showMethods(TOKEN_ONLY),
    );
  };
  if (mode !== 'served') {
    let timer: ReturnType<typeof setTimeout> | undefined;
    server.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(loadMethods, 400);
    });
  }

  const card = h(
    'div',
    { class: 'sign-in card' },
    h('div', { class: 'sign-in-mark', 'aria-hidden': 'true' }),
    h('h1', {}, 'Sign in to Folio'),
    h(
      'p',
      { class: 'muted sign-in-lede' },
      mode === 'served' ? `on ${new URL(own!).host}` : 'Connect to your team’s Folio server.',
    ),
    options.note && h('p', { class: 'form-note', 'data-testid': 'sign-in-note' }, options.note),
    mode !== 'served' && serverLabel,
    methodsArea,
    tokenSection,
    message,
  );
  const root = h(
    'main',
    { class: 'centered sign-in-page', 'data-testid': 'sign-in-screen' },
    card,
    options.openSettings &&
      h(
        'p',
        { class: 'muted sign-in-footer' },
        h(
          'button',
          { type: 'button', class: 'link', 'data-testid': 'open-settings', onclick: options.openSettings },
          'Settings',
        ),
        ' — theme and saved accounts',
      ),
  );

  if (mode === 'served' && options.next) {
    // Sent here by a page that needs a session (the desktop app's authorization page): a browser
    // already signed in goes straight on.
    replace(methodsArea, h('p', { class: 'state state-loading', role: 'status' }, 'Checking your session…'));
    cookieSession(own!).then(
      (session) => (session ? location.assign(options.next!) : loadMethods()),
      () => loadMethods(),
    );
  } else loadMethods();
  return root;
}

/** SSO: the work email finds the organization, whose identity provider the server redirects to. */
function ssoPanel(serverUrl: string, next: string): HTMLElement {
  const email = h('input', {
    type: 'email',
    name: 'email',
    required: true,
    autocomplete: 'email',
    placeholder: 'you@company.com',
    'data-testid': 'sso-email',
  });
  const form = h(
    'form',
    { class: 'sign-in-panel sign-in-inline', 'data-testid': 'sso-panel' },
    h('label', {}, 'Work email', email),
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'sso-continue' }, 'Continue'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    location.assign(ssoStartUrl(serverUrl, email.value.trim(), next));
  });
  queueMicrotask(() => email.focus());
  return form;
}

/** "Use an API token": the token form, collapsed unless the server offers nothing else. */
function tokenForm(
  server: HTMLInputElement,
  serverLabel: HTMLElement,
  mode: Mode,
  serverValue: () => string,
  say: (message: string, tone?: 'error' | 'info') => void,
  done: (session: Session) => void,
): HTMLDetailsElement {
  const token = h('input', {
    name: 'token',
    type: 'password',
    required: true,
    placeholder: 'API token',
    autocomplete: 'current-password',
    'data-testid': 'token',
  });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'sign-in' }, 'Sign in with token');
  const another =
    mode === 'served' &&
    h(
      'button',
      {
        type: 'button',
        class: 'link sign-in-another',
        'data-testid': 'another-server',
        onclick: () => {
          serverLabel.hidden = false;
          (another as HTMLElement).hidden = true;
          server.focus();
        },
      },
      'Sign in to another server',
    );
  if (mode === 'served') serverLabel.hidden = true;
  const form = h(
    'form',
    { class: 'sign-in-token-form' },
    mode === 'served' && serverLabel,
    h('label', {}, 'API token', token),
    submit,
    another,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    say('Signing in…', 'info');
    signIn(serverValue(), token.value).then(
      (session) => {
        say('');
        done(session);
      },
      (err: unknown) => {
        submit.disabled = false;
        say(`Could not sign in: ${describeError(err)}`);
      },
    );
  });
  const details = h(
    'details',
    { class: 'sign-in-token', 'data-testid': 'token-section' },
    h('summary', { 'data-testid': 'use-token' }, icon('key', { size: 16 }), h('span', {}, 'Use an API token')),
    form,
  );
  details.addEventListener('toggle', () => {
    if (details.open) token.focus();
  });
  return details;
}

/** The name the server shows for this computer ("Folio desktop on <name>") in "Sessions and devices". */
function deviceName(): string {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } };
  return (nav.userAgentData?.platform || navigator.platform || 'this computer').slice(0, 100);
}
