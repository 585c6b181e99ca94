import type { Awareness } from 'y-protocols/awareness';
import { h, replace } from '../ui/dom';

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

/** The "who is here" list in the header. */
export class PresenceList {
  readonly element = h('span', {
    class: 'presence',
    role: 'group',
    'data-testid': 'presence',
    'aria-label': 'People here',
  });
  private readonly onChange = () => this.render();

  constructor(
    private readonly awareness: Awareness,
    private readonly pageTitle: (pageId: string) => string | undefined,
  ) {
    awareness.on('change', this.onChange);
    this.render();
  }

  /** Renders the other clients' names. */
  render(): void {
    const others: HTMLElement[] = [];
    for (const [clientId, state] of this.awareness.getStates()) {
      if (clientId === this.awareness.clientID) continue;
      const user = (state as { user?: { name?: string; color?: string } }).user;
      if (!user?.name) continue;
      const page = (state as { page?: string | null }).page;
      const where = page ? this.pageTitle(page) : undefined;
      const avatar = h(
        'span',
        { class: 'avatar', title: where ? `${user.name} — on “${where}”` : user.name },
        user.name,
      );
      avatar.style.background = user.color ?? '#888';
      others.push(avatar);
    }
    replace(this.element, ...others);
  }

  /** Stops listening. */
  destroy(): void {
    this.awareness.off('change', this.onChange);
  }
}
