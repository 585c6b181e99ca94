import type { ComponentChildren } from 'preact';
import type { SiteDetails } from '../site-api';

/**
 * The line under the site's heading on its customization, audience and settings screens: what the
 * screen is for, and, for a member who may only read, why nothing can be changed.
 */
export function ScreenIntro(props: { site: SiteDetails; testid: string; children?: ComponentChildren }) {
  return (
    <p class="muted site-screen-intro" data-testid={props.testid}>
      {props.children}
      {!props.site.permissions.create && (
        <span data-testid="site-read-only">
          {' '}
          You can see these settings; members with the Create role or above change them.
        </span>
      )}
    </p>
  );
}
