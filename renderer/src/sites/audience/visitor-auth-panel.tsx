import { useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { useApp } from '../../screens/context';
import { confirmDialog, Dialog, DialogActions } from '../../ui/kit/dialog';
import { CopyField } from '../../ui/kit/copy-field';
import { Icon } from '../../ui/kit/icon';
import type { SiteDetails } from '../site-api';
import { regenerateVisitorKey } from '../settings-api';

/**
 * Authenticated access (GitBook's visitor authentication): the docs owner's own sign-in sends
 * visitors to the site with a JWT signed with the site's key. The key is shown once, when it is
 * created, in a dialog with a copy button; it is never fetched or shown again (creating a new one
 * replaces it, and every token signed with the old one stops working).
 */
export function VisitorAuthPanel(props: { orgId: string; site: SiteDetails }) {
  const { session } = useApp();
  const { site } = props;
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState('');
  const [newKey, setNewKey] = useState<string | undefined>();
  const address = site.urls.published ?? site.urls.preview;

  const create = async () => {
    const confirmed = await confirmDialog(
      'Create a new signing key? Visitor tokens signed with the current key stop working at once.',
      'Create key',
    );
    if (!confirmed) return;
    setCreating(true);
    setError('');
    try {
      setNewKey((await regenerateVisitorKey(session.api, props.orgId, site.id)).privateKey);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setCreating(false);
    }
  };

  return (
    <section class="org-panel" aria-labelledby="site-visitor-auth-title" data-testid="site-visitor-auth">
      <header class="org-panel-header">
        <h2 id="site-visitor-auth-title">Authenticated access</h2>
      </header>
      <p>
        Sign visitors in with your own system, then send them to{' '}
        <code class="visitor-auth-url">{address}?jwt_token=&lt;token&gt;</code>: a JWT signed (HS256) with the site’s
        key, valid for at most 24 hours. Its claims are what adaptive content sees.
      </p>
      {site.permissions.admin ? (
        <div class="org-row">
          <button type="button" disabled={creating} data-testid="visitor-key-create" onClick={() => void create()}>
            <Icon name="key" />
            {creating ? 'Creating…' : 'Create a signing key'}
          </button>
          <span class="muted">The key is shown once. Creating one replaces the previous key.</span>
        </div>
      ) : (
        <p class="muted" data-testid="visitor-key-admins">
          Only administrators of the organization create the signing key.
        </p>
      )}
      <p class="form-message" role="alert" data-testid="visitor-key-error">
        {error}
      </p>
      {newKey !== undefined && (
        <Dialog
          title="The site’s signing key"
          onClose={() => setNewKey(undefined)}
          testid="visitor-key-dialog"
          class="visitor-key-dialog"
        >
          <p>Copy the key now and keep it secret: it is not shown again.</p>
          <CopyField value={newKey} label="Signing key" testid="visitor-key" />
          <DialogActions>
            <button type="button" class="primary" data-testid="visitor-key-done" onClick={() => setNewKey(undefined)}>
              Done
            </button>
          </DialogActions>
        </Dialog>
      )}
    </section>
  );
}
