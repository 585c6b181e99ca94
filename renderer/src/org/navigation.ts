import type { Route } from '../routes';
import { h } from '../ui/dom';

/** Attributes of a link (those `h` takes). */
export type LinkAttrs = NonNullable<Parameters<typeof h>[1]>;

/** How the organization screens move around the app (the app owns the URL and the session). */
export interface OrgNavigation {
  go(route: Route): void;
  /** The URL of a route, for real links (open in a new tab, copy link). */
  href(route: Route): string;
  signOut(): void;
  openSettings(): void;
  /** An `<a>` to a route: a real link for the browser, navigated in place on a plain click. */
  link(route: Route, attrs: LinkAttrs, ...children: (Node | string | null | undefined | false)[]): HTMLElement;
}

/** Builds the navigation the screens use from the app's callbacks. */
export function orgNavigation(base: Omit<OrgNavigation, 'link'>): OrgNavigation {
  return {
    ...base,
    link(route, attrs, ...children) {
      const a = h('a', { ...attrs, href: base.href(route) }, ...children);
      a.addEventListener('click', (event) => {
        // Modified clicks keep the browser's behaviour (new tab, new window).
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        base.go(route);
      });
      return a;
    },
  };
}
