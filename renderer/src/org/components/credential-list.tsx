import { useApp } from '../../screens/context';
import { describeUserAgent, KIND_ICONS, KIND_LABELS, METHOD_LABELS } from '../../sign-in/sessions-list';
import { revokeCredential } from '../../stores/org-writes';
import { AsyncSection } from '../../ui/kit/async-section';
import { confirmDialog } from '../../ui/kit/dialog';
import { useResource } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import { toast } from '../../ui/toast';
import type { Credential } from '../org-api';
import { useAction } from './use-action';

const day = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/**
 * The one list of what acts as the signed-in person on this server: browser sessions, desktop
 * apps and API tokens, the one in use first and marked "this device", then newest first. Revoke
 * stops one at once (its open connections close); the one in use is signed out instead.
 */
export function CredentialList() {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.credentials, 'mine');
  return (
    <AsyncSection state={state} what="your sessions and tokens" retry={retry}>
      {(items) => {
        const sorted = [...items].sort(
          (a, b) => Number(b.current) - Number(a.current) || Date.parse(b.createdAt) - Date.parse(a.createdAt),
        );
        return (
          <ul class="session-list" data-testid="session-list">
            {sorted.map((c) => (
              <CredentialRow key={c.id} credential={c} />
            ))}
            {sorted.length === 0 && <li class="muted">Nothing signed in.</li>}
          </ul>
        );
      }}
    </AsyncSection>
  );
}

/** What a row is called: a token or device by the name it was given, a browser session by its browser. */
function nameOf(c: Credential): { title: string; device: string | undefined } {
  const kind = c.kind ?? 'api';
  const device = describeUserAgent(c.userAgent);
  if (kind === 'session') return { title: device ?? (c.label || KIND_LABELS[kind]!), device: undefined };
  return { title: c.label || device || (kind === 'api' ? 'Unnamed token' : KIND_LABELS[kind]!), device };
}

function CredentialRow({ credential: c }: { credential: Credential }) {
  const { stores, nav } = useApp();
  const revoke = useAction();
  const kind = c.kind ?? 'api';
  const { title, device } = nameOf(c);
  const facts = [
    KIND_LABELS[kind],
    device !== title && device,
    c.signInMethod && kind !== 'api' && `via ${METHOD_LABELS[c.signInMethod] ?? c.signInMethod}`,
    `created ${day(c.createdAt)}`,
    c.lastUsedAt ? `last used ${day(c.lastUsedAt)}` : 'never used',
    c.expiresAt ? `expires ${day(c.expiresAt)}` : 'never expires',
  ].filter(Boolean);
  const onRevoke = async () => {
    if (!(await confirmDialog(`Sign out “${title}”? It stops working at once.`, 'Revoke'))) return;
    const done = await revoke.run('Could not sign out', () => revokeCredential(stores, c.id).then(() => true));
    if (done) toast(`Signed out “${title}”`);
  };
  return (
    <li class="session" data-testid="session" data-token-id={c.id} data-kind={kind} data-current={String(c.current)}>
      <span class="session-icon">
        <Icon name={KIND_ICONS[kind] ?? 'key'} size={18} />
      </span>
      <span class="session-who">
        <span class="session-title" title={c.userAgent ?? undefined}>
          <strong data-testid="session-name">{title}</strong>
          {c.current && (
            <span class="badge badge-active" data-testid="session-current">
              this device
            </span>
          )}
        </span>
        <span class="session-facts">{facts.join(' · ')}</span>
      </span>
      {c.current ? (
        <button type="button" data-testid="session-sign-out" onClick={() => nav.signOut()}>
          Sign out
        </button>
      ) : (
        <button
          type="button"
          class="danger"
          aria-label={`Revoke ${title}`}
          data-testid="session-revoke"
          disabled={revoke.busy}
          onClick={() => void onRevoke()}
        >
          Revoke
        </button>
      )}
    </li>
  );
}
