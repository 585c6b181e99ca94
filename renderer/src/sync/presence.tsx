import { useEffect, useState } from 'preact/hooks';
import type { Awareness } from 'y-protocols/awareness';

/**
 * Presence: this user's name, colour and open page in the awareness state
 * (y-codemirror.next reads `user` to label the cursor), and the list of who
 * else has the document open.
 */

const COLORS = ['#d1495b', '#00798c', '#edae49', '#66a182', '#8d6cab', '#e07a5f', '#3d5a80', '#2a9d8f'];

/** A stable colour for a user (same user, same colour in every window). */
export function colorFor(key: string): string {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return COLORS[Math.abs(hash) % COLORS.length]!;
}

/** Sets this user's awareness fields. */
export function announce(awareness: Awareness, user: { name: string; id?: string }, pageId: string | undefined): void {
  const color = colorFor(user.id ?? user.name);
  awareness.setLocalStateField('user', { name: user.name, color, colorLight: `${color}33` });
  awareness.setLocalStateField('page', pageId ?? null);
}

/** The "who is here" list in the header: the other clients' names, and the page each has open. */
export function Presence(props: { awareness: Awareness; pageTitle: (pageId: string) => string | undefined }) {
  const { awareness } = props;
  const [, setTick] = useState(0);
  useEffect(() => {
    const onChange = () => setTick((n) => n + 1);
    awareness.on('change', onChange);
    return () => awareness.off('change', onChange);
  }, [awareness]);
  const others: { clientId: number; name: string; color: string; where: string | undefined }[] = [];
  for (const [clientId, state] of awareness.getStates()) {
    if (clientId === awareness.clientID) continue;
    const user = (state as { user?: { name?: string; color?: string } }).user;
    if (!user?.name) continue;
    const page = (state as { page?: string | null }).page;
    others.push({
      clientId,
      name: user.name,
      color: user.color ?? '#888',
      where: page ? props.pageTitle(page) : undefined,
    });
  }
  return (
    <span class="presence" role="group" data-testid="presence" aria-label="People here">
      {others.map((other) => (
        <span
          key={other.clientId}
          class="avatar"
          title={other.where ? `${other.name} — on “${other.where}”` : other.name}
          style={{ background: other.color }}
        >
          {other.name}
        </span>
      ))}
    </span>
  );
}
