import { describeError, type ApiClient } from '../api/client';
import { confirmDialog } from '../ui/dialog';
import { errorState, h, loading, replace } from '../ui/dom';
import { icon, type IconName } from '../ui/icons';
import { toast } from '../ui/toast';

/** One credential of the signed-in person (`GET /v1/user/tokens`; never the secret). */
export interface Credential {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt?: string;
  kind?: 'api' | 'session' | 'device';
  expiresAt?: string | null;
  signInMethod?: string | null;
  userAgent?: string | null;
  current: boolean;
}

const KIND_LABELS: Record<string, string> = { session: 'Browser session', device: 'Desktop app', api: 'API token' };
const KIND_ICONS: Record<string, IconName> = { session: 'globe', device: 'monitor', api: 'key' };
const METHOD_LABELS: Record<string, string> = {
  saml: 'SSO (SAML)',
  oidc: 'OpenID Connect',
  email: 'email link',
  token: 'API token',
};

const day = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * A readable name for a browser or app from its User-Agent ("Chrome on Linux"); the raw
 * string is kept in the row's title for the curious.
 */
export function describeUserAgent(ua: string | null | undefined): string | undefined {
  if (!ua) return undefined;
  const browser =
    /Electron\//.test(ua) || /Folio/.test(ua)
      ? 'Folio desktop'
      : /Edg\//.test(ua)
        ? 'Edge'
        : /Firefox\//.test(ua)
          ? 'Firefox'
          : /Chrom(e|ium)\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : /curl\//.test(ua)
                ? 'curl'
                : undefined;
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.slice(0, 60);
}

/**
 * "Sessions and devices": every browser session, desktop app and API token of the signed-in
 * person, newest first, with the one in use marked "this device"; Revoke signs that one out at
 * once (its open connections close). Revoking the one in use is signing out, so it is offered as
 * that instead (`signOut`).
 */
export function sessionsList(api: ApiClient, signOut: () => Promise<void>): HTMLElement {
  const list = h('ul', { class: 'session-list', 'data-testid': 'session-list' }, h('li', {}, loading('sessions')));
  const load = async (): Promise<void> => {
    try {
      const { items } = await api.request<{ items: Credential[] }>('/user/tokens');
      const sorted = [...items].sort(
        (a, b) => Number(b.current) - Number(a.current) || Date.parse(b.createdAt) - Date.parse(a.createdAt),
      );
      replace(list, ...sorted.map(row), sorted.length === 0 && h('li', { class: 'muted' }, 'Nothing signed in.'));
    } catch (err) {
      replace(
        list,
        h(
          'li',
          {},
          errorState(`Could not list your sessions: ${describeError(err)}`, () => void load()),
        ),
      );
    }
  };
  const row = (c: Credential): HTMLElement => {
    const kind = c.kind ?? 'api';
    const who = describeUserAgent(c.userAgent);
    const title = kind === 'api' ? c.label || 'Unnamed token' : (who ?? (c.label || KIND_LABELS[kind]!));
    const facts = [
      KIND_LABELS[kind],
      c.signInMethod && kind !== 'api' && `via ${METHOD_LABELS[c.signInMethod] ?? c.signInMethod}`,
      `signed in ${day(c.createdAt)}`,
      c.expiresAt ? `expires ${day(c.expiresAt)}` : 'never expires',
    ].filter(Boolean);
    const revoke = async (): Promise<void> => {
      if (c.current) return signOut();
      if (!(await confirmDialog(`Sign out “${title}”? It stops working at once.`, 'Revoke'))) return;
      await api.request<void>(`/user/tokens/${encodeURIComponent(c.id)}`, { method: 'DELETE' });
      toast(`Signed out “${title}”`);
      await load();
    };
    return h(
      'li',
      {
        class: 'session',
        'data-testid': 'session',
        'data-token-id': c.id,
        'data-kind': kind,
        'data-current': String(c.current),
      },
      h('span', { class: 'session-icon' }, icon(KIND_ICONS[kind] ?? 'key', { size: 18 })),
      h(
        'span',
        { class: 'session-who' },
        h(
          'span',
          { class: 'session-title', title: c.userAgent ?? '' },
          h('strong', {}, title),
          c.current && h('span', { class: 'badge badge-active', 'data-testid': 'session-current' }, 'this device'),
        ),
        h('span', { class: 'session-facts' }, facts.join(' · ')),
      ),
      h(
        'button',
        {
          type: 'button',
          class: c.current ? '' : 'danger',
          'data-testid': c.current ? 'session-sign-out' : 'session-revoke',
          onclick: () =>
            void revoke().catch((err: unknown) => toast(`Could not sign out: ${describeError(err)}`, 'error')),
        },
        c.current ? 'Sign out' : 'Revoke',
      ),
    );
  };
  void load();
  return list;
}
