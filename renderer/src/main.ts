import { platform } from './platform';

/**
 * First screen of the desktop app: sign in to a Folio server with its URL and
 * an API token, then list the organizations that token can see.
 */
const root = document.getElementById('app')!;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function api<T>(server: string, token: string, path: string): Promise<T> {
  const res = await fetch(`${server.replace(/\/+$/, '')}/v1${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as T & { error?: { message: string } };
  if (!res.ok) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
  return body;
}

function signIn(): void {
  const form = el('form');
  const server = Object.assign(el('input'), { name: 'server', value: location.origin.startsWith('http') ? location.origin : 'http://127.0.0.1:8080', required: true });
  const token = Object.assign(el('input'), { name: 'token', type: 'password', placeholder: 'API token', required: true });
  const status = el('p');
  form.append(el('h1', 'Folio'), el('label', 'Server URL'), server, el('label', 'API token'), token, el('button', 'Sign in'), status);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    status.textContent = 'Signing in…';
    void (async () => {
      try {
        const user = await api<{ displayName: string }>(server.value, token.value, '/user');
        const orgs = await api<{ items: { id: string; title: string }[] }>(server.value, token.value, '/orgs');
        root.replaceChildren(el('h1', `Hello, ${user.displayName}`), ...orgs.items.map((o) => el('p', o.title)));
      } catch (err) {
        status.textContent = `Could not sign in: ${(err as Error).message}`;
      }
    })();
  });
  root.replaceChildren(form, el('footer', `Running as a ${platform().platform} app`));
}

signIn();
