import { useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { useApp } from '../../screens/context';
import { Icon } from '../../ui/kit/icon';
import type { SiteDetails } from '../site-api';

/** Whether the site is online, the switch that publishes or unpublishes it, and its address. */
export function PublishingPanel(props: { orgId: string; site: SiteDetails }) {
  const { stores } = useApp();
  const { site } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const published = site.urls.published;

  const toggle = async () => {
    setBusy(true);
    setError('');
    try {
      await stores.setSitePublished(props.orgId, site.id, !site.published);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="org-panel" aria-labelledby="site-publishing-title" data-testid="site-publishing">
      <header class="org-panel-header">
        <h2 id="site-publishing-title">Publishing</h2>
      </header>
      <p class="muted" data-testid="site-publishing-state">
        {site.published
          ? 'Readers can open the site at its address.'
          : 'Nobody can read the site until it is published.'}
      </p>
      {published && (
        <p class="site-address">
          <a href={published} target="_blank" rel="noopener" data-testid="site-open">
            {published.replace(/[?].*$/, '')}
            <Icon name="external-link" size={14} />
          </a>
        </p>
      )}
      {site.permissions.create && (
        <div class="org-row">
          <button
            type="button"
            class={site.published ? undefined : 'primary'}
            disabled={busy}
            data-testid={site.published ? 'site-unpublish' : 'site-publish'}
            onClick={() => void toggle()}
          >
            <Icon name="globe" />
            {busy ? 'Working…' : site.published ? 'Unpublish' : 'Publish'}
          </button>
        </div>
      )}
      <p class="form-message" role="alert" data-testid="site-publishing-error">
        {error}
      </p>
    </section>
  );
}
