import { describeError } from '../api/client';
import { signIn, type Session } from '../session';
import { h } from '../ui/dom';

/** The server URL to suggest: this server when the app is served by one (/app/), else a local default. */
export function defaultServerUrl(): string {
  return location.protocol.startsWith('http') && location.pathname.startsWith('/app/')
    ? location.origin
    : 'http://127.0.0.1:8080';
}

/** The sign-in form: server URL and API token; resolves through `done` once the token is accepted. */
export function signInView(
  done: (session: Session) => void,
  options: { openSettings?: () => void; initialServer?: string; note?: string } = {},
): HTMLElement {
  const initialServer = options.initialServer ?? defaultServerUrl();
  const server = h('input', {
    name: 'server',
    type: 'url',
    value: initialServer,
    required: true,
    autocomplete: 'url',
    'data-testid': 'server-url',
  });
  const token = h('input', {
    name: 'token',
    type: 'password',
    required: true,
    placeholder: 'API token',
    autocomplete: 'current-password',
    'data-testid': 'token',
  });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'sign-in' }, 'Sign in');
  const message = h('p', { class: 'form-message', role: 'alert', 'data-testid': 'sign-in-error' });
  const form = h(
    'form',
    { class: 'sign-in card' },
    h('h1', {}, 'Folio'),
    h('p', { class: 'muted' }, 'Sign in to a Folio server with an API token.'),
    options.note && h('p', { class: 'form-note', 'data-testid': 'sign-in-note' }, options.note),
    h('label', {}, 'Server URL', server),
    h('label', {}, 'API token', token),
    submit,
    message,
    options.openSettings &&
      h(
        'p',
        { class: 'muted' },
        h(
          'button',
          { type: 'button', class: 'link', 'data-testid': 'open-settings', onclick: options.openSettings },
          'Settings',
        ),
        ' — theme and saved accounts',
      ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit.disabled = true;
    message.textContent = 'Signing in…';
    signIn(server.value, token.value).then(done, (err: unknown) => {
      submit.disabled = false;
      message.textContent = `Could not sign in: ${describeError(err)}`;
    });
  });
  queueMicrotask(() => token.focus());
  return h('main', { class: 'centered' }, form);
}
