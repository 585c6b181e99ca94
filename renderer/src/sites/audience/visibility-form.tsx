import { useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { useApp } from '../../screens/context';
import type { SiteDetails, SiteVisibility } from '../site-api';
import { VISIBILITIES } from './visibility-options';

/**
 * Who may read the site: one choice, saved as soon as it is picked (the API's `visibility`). A
 * refusal leaves the previous choice checked and says why.
 */
export function VisibilityForm(props: { orgId: string; site: SiteDetails }) {
  const { stores } = useApp();
  const { site } = props;
  const canEdit = site.permissions.create;
  const [saving, setSaving] = useState<SiteVisibility | undefined>();
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');

  const choose = async (visibility: SiteVisibility) => {
    setSaving(visibility);
    setError('');
    setSaid('');
    try {
      await stores.updateSite(props.orgId, site.id, { visibility });
      setSaid('Saved');
    } catch (err) {
      setError(describeError(err));
    } finally {
      setSaving(undefined);
    }
  };

  const checked = saving ?? site.visibility;
  return (
    <section class="org-panel" aria-labelledby="site-visibility-title" data-testid="site-visibility">
      <header class="org-panel-header">
        <h2 id="site-visibility-title">Who can read the site</h2>
        <span class="muted" role="status" data-testid="site-visibility-status">
          {saving ? 'Saving…' : said}
        </span>
      </header>
      <div class="visibility-options" role="radiogroup" aria-labelledby="site-visibility-title">
        {VISIBILITIES.map((option) => (
          <label key={option.value} class="visibility-option" data-checked={checked === option.value}>
            <input
              type="radio"
              name="site-visibility"
              value={option.value}
              checked={checked === option.value}
              disabled={!canEdit || saving !== undefined}
              data-testid={`site-visibility-${option.value}`}
              onChange={() => void choose(option.value)}
            />
            <span>
              <strong>{option.label}</strong>
              <span class="muted">{option.description}</span>
            </span>
          </label>
        ))}
      </div>
      <p class="form-message" role="alert" data-testid="site-visibility-error">
        {error}
      </p>
    </section>
  );
}
