import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { useApp } from '../../screens/context';
import { Field } from '../../ui/kit/field';
import type { SiteDetails, UpdateSiteBody } from '../site-api';

/** The API's pattern of a site hostname (GitBook's): three or more DNS labels, lower case. */
const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

/**
 * The site's title and custom domain. The server checks both (a domain must be verified for the
 * organization first, or lie under one that is); its refusal is shown as it says it, and nothing
 * changes.
 */
export function GeneralForm(props: { orgId: string; site: SiteDetails }) {
  const { stores } = useApp();
  const { site } = props;
  const canEdit = site.permissions.create;
  const [title, setTitle] = useState(site.title);
  const [hostname, setHostname] = useState(site.hostname ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');

  // The site changed elsewhere (another tab of this screen, a rename in the list): show it.
  useEffect(() => setTitle(site.title), [site.title]);
  useEffect(() => setHostname(site.hostname ?? ''), [site.hostname]);

  const change = (): UpdateSiteBody => {
    const body: UpdateSiteBody = {};
    if (title.trim() !== site.title) body.title = title.trim();
    const host = hostname.trim().toLowerCase();
    if (host !== (site.hostname ?? '')) body.hostname = host === '' ? null : host;
    return body;
  };
  const dirty = Object.keys(change()).length > 0;

  const save = async () => {
    const host = hostname.trim().toLowerCase();
    if (host && !HOSTNAME.test(host)) {
      setError(
        `“${host}” is not a hostname a site can have: use lower-case letters, digits and hyphens, with at least three parts (docs.example.com)`,
      );
      return;
    }
    setSaving(true);
    setError('');
    setSaid('');
    try {
      await stores.updateSite(props.orgId, site.id, change());
      setSaid('Saved');
    } catch (err) {
      setError(describeError(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section class="org-panel" aria-labelledby="site-general-title" data-testid="site-general">
      <header class="org-panel-header">
        <h2 id="site-general-title">General</h2>
      </header>
      <form
        class="org-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <Field label="Title">
          <input
            type="text"
            value={title}
            minLength={2}
            maxLength={128}
            required
            disabled={!canEdit || saving}
            data-testid="site-title-input"
            onInput={(event) => setTitle(event.currentTarget.value)}
          />
        </Field>
        <Field
          label="Custom domain"
          hint="The site is also served at the root of this hostname (docs.example.com). Verify the domain for the organization first; leave empty for none."
        >
          <input
            type="text"
            value={hostname}
            maxLength={512}
            placeholder="docs.example.com"
            spellcheck={false}
            autocomplete="off"
            disabled={!canEdit || saving}
            data-testid="site-hostname-input"
            onInput={(event) => setHostname(event.currentTarget.value)}
          />
        </Field>
        <p class="form-message" role="alert" data-testid="site-general-error">
          {error}
        </p>
        {canEdit && (
          <div class="org-row">
            <button type="submit" class="primary" disabled={saving || !dirty} data-testid="site-general-save">
              {saving ? 'Saving…' : 'Save'}
            </button>
            <span class="muted" role="status" data-testid="site-general-status">
              {said}
            </span>
          </div>
        )}
      </form>
    </section>
  );
}
