import { useEffect, useRef } from 'preact/hooks';

/**
 * Hosts DOM that is not Preact's (CodeMirror and its Yjs binding, the live preview): `create`
 * builds it into the given element when mounted and returns its cleanup, run on unmount. Preact
 * never touches what `create` put there.
 */
export function Imperative(props: {
  create: (host: HTMLElement) => (() => void) | void;
  /** Re-created when this changes. */
  deps?: unknown[];
  class?: string;
  testid?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const create = useRef(props.create);
  create.current = props.create;
  useEffect(() => {
    const el = host.current!;
    const cleanup = create.current(el);
    return () => {
      cleanup?.();
      el.replaceChildren();
    };
  }, props.deps ?? []);
  return <div ref={host} class={props.class} data-testid={props.testid} />;
}

/** An existing element (an icon, a widget still built with `h`) placed in Preact's tree. */
export function Element({ node, class: className }: { node: Node; class?: string }) {
  return <Imperative class={className} deps={[node]} create={(host) => void host.append(node)} />;
}
