/**
 * A tiny DOM builder for the parts of the app that are not Preact components: CodeMirror's
 * widgets and panels (the editor's toolbar, live-preview widgets), the reading view and the diff
 * view. Attributes, listeners and text are set the same safe way (text is never parsed as HTML).
 * Screens and their chrome are components (ui/kit/).
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
