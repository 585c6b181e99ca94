import { useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { FormDialog, FormError } from '../../ui/kit/form-dialog';

/** The limits of a site title (the API's SiteTitle). */
export function checkSiteTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 2) throw new FormError('A site title needs at least 2 characters.');
  if (trimmed.length > 128) throw new FormError('A site title has at most 128 characters.');
  return trimmed;
}

/** "New site": asks for a title, creates the site (unpublished) and opens its overview. */
export function NewSiteDialog({ orgId, onClose }: { orgId: string; onClose: () => void }) {
  const { stores, nav } = useApp();
  const [title, setTitle] = useState('');
  const create = async () => {
    const site = await stores.sites.createSite(orgId, { title: checkSiteTitle(title) });
    onClose();
    nav.go({ view: 'site', orgId, siteId: site.id });
  };
  return (
    <FormDialog
      title="New docs site"
      submitLabel="Create site"
      submitTestid="new-site-create"
      testid="new-site-dialog"
      onSubmit={create}
      onClose={onClose}
    >
      <label>
        Title
        <input
          type="text"
          value={title}
          maxLength={128}
          placeholder="Developer docs"
          data-testid="new-site-title"
          autoFocus
          onInput={(event) => setTitle(event.currentTarget.value)}
        />
      </label>
      <p class="muted">The site starts unpublished. Add spaces to it, then publish it from its overview.</p>
    </FormDialog>
  );
}
