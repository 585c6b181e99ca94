/**
 * A tiny DOM builder: the app is plain TypeScript + DOM (no framework), and
 * every view builds its elements through `h` so attributes, listeners and
 * text are set the same safe way (text is never parsed as HTML).
 */

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;

/** Creates an element; `on<event>` keys add listeners, boolean attributes are set when true. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'value' && 'value' in node) (node as HTMLInputElement).value = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

/** Appends children, skipping empty ones (so views can write `cond && h(...)`). */
export function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/** Replaces all children of `node`. */
export function replace(node: Node, ...children: Child[]): void {
  while (node.firstChild) node.removeChild(node.firstChild);
  append(node, children);
}

/** The standard loading placeholder. */
export function loading(what: string): HTMLElement {
  return h('p', { class: 'state state-loading', role: 'status' }, `Loading ${what}…`);
}

/** The standard empty-state block, with an optional action button. */
export function empty(message: string, action?: { label: string; run: () => void; testid?: string }): HTMLElement {
  return h(
    'div',
    { class: 'state state-empty' },
    h('p', {}, message),
    action && h('button', { type: 'button', onclick: () => action.run(), 'data-testid': action.testid }, action.label),
  );
}

/** The standard error block, with a retry button when the failure may be temporary. */
export function errorState(message: string, retry?: () => void): HTMLElement {
  return h(
    'div',
    { class: 'state state-error', role: 'alert' },
    h('p', {}, message),
    retry && h('button', { type: 'button', onclick: () => retry() }, 'Retry'),
  );
}
