import { useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { useApp } from '../../screens/context';
import { confirmDialog } from '../../ui/kit/dialog';
import { Icon } from '../../ui/kit/icon';
import type { SiteDetails } from '../site-api';

/** Deleting the site (administrators): asked first, then back to the organization's sites. */
export function DeletePanel(props: { orgId: string; site: SiteDetails }) {
  const { stores, nav } = useApp();
  const { site } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const remove = async () => {
    const confirmed = await confirmDialog(
      `Delete the site “${site.title}”? Its address stops working; the spaces it published stay.`,
      'Delete site',
    );
    if (!confirmed) return;
    setBusy(true);
    setError('');
    try {
      await stores.deleteSite(props.orgId, site.id);
      nav.go({ view: 'org', orgId: props.orgId, tab: 'sites' });
    } catch (err) {
      setError(describeError(err));
      setBusy(false);
    }
  };

  return (
    <section class="org-panel site-danger" aria-labelledby="site-delete-title" data-testid="site-delete-panel">
      <header class="org-panel-header">
        <h2 id="site-delete-title">Delete the site</h2>
      </header>
      <p class="muted">The published site goes away; the spaces it published are kept.</p>
      <div class="org-row">
        <button type="button" class="danger" disabled={busy} data-testid="site-delete" onClick={() => void remove()}>
          <Icon name="trash" />
          {busy ? 'Deleting…' : 'Delete site'}
        </button>
      </div>
      <p class="form-message" role="alert" data-testid="site-delete-error">
        {error}
      </p>
    </section>
  );
}
