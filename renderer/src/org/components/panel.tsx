import type { ComponentChildren } from 'preact';

/** A settings section of the organization screens: a heading, an optional action beside it, then its body. */
export function Panel(props: {
  title: string;
  testid: string;
  action?: ComponentChildren;
  children: ComponentChildren;
}) {
  const id = `org-panel-${props.testid}`;
  return (
    <section class="org-panel" aria-labelledby={id} data-testid={props.testid}>
      <header class="org-panel-header">
        <h2 id={id}>{props.title}</h2>
        {props.action}
      </header>
      {props.children}
    </section>
  );
}
