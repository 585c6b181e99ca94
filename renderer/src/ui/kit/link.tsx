import type { ComponentChildren, JSX } from 'preact';
import type { Route } from '../../routes';
import { useNavigation } from '../../screens/context';

/**
 * A link to a screen of the app: a real `<a href>` (open in a new tab, copy link), navigated in
 * place on a plain click.
 */
export function Link(
  props: { to: Route; children?: ComponentChildren } & Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'>,
) {
  const nav = useNavigation();
  const { to, children, ...rest } = props;
  return (
    <a
      {...rest}
      href={nav.href(to)}
      onClick={(event) => {
        // Modified clicks keep the browser's behaviour (new tab, new window).
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        nav.go(to);
      }}
    >
      {children}
    </a>
  );
}
