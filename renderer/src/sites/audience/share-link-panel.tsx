import { CopyField } from '../../ui/kit/copy-field';
import type { SiteDetails } from '../site-api';

/**
 * The site's share link, while the site is shared by link. The server keeps one secret key per
 * site and puts it in the published URL it shows administrators (`urls.published?share=…`); that
 * URL is the link to send.
 */
export function ShareLinkPanel({ site }: { site: SiteDetails }) {
  const url = site.urls.published;
  const hasKey = url !== undefined && new URL(url).searchParams.has('share');
  return (
    <section class="org-panel" aria-labelledby="site-share-title" data-testid="site-share-links">
      <header class="org-panel-header">
        <h2 id="site-share-title">Share link</h2>
      </header>
      {!site.published ? (
        <p class="muted" data-testid="site-share-unpublished">
          The share link works once the site is published.
        </p>
      ) : !hasKey ? (
        <p class="muted" data-testid="site-share-hidden">
          Only administrators of the organization see the share link.
        </p>
      ) : (
        <ul class="org-list" data-testid="site-share-list">
          <li data-testid="site-share-link">
            <div class="share-link-row">
              <span>Anyone with this link can read the site:</span>
              <CopyField value={url} label="Share link" testid="site-share-url" />
            </div>
          </li>
        </ul>
      )}
    </section>
  );
}
