import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { useApp } from '../../screens/context';
import { Field } from '../../ui/kit/field';
import type { DefaultTheme, SiteCustomization } from '../settings-api';
import { ColorField } from './color-field';
import { changeOf, draftOf, movedLink, sameDraft, withLink, type CustomizationDraft } from './draft';
import { FaviconField } from './favicon-field';
import { HeaderLinksEditor } from './header-links-editor';

/** Fonts offered first (any name of letters, digits and spaces is accepted: the reader's browser must have it). */
const FONTS = ['Inter', 'Roboto', 'Open Sans', 'Lato', 'Source Sans Pro', 'Merriweather', 'Georgia', 'Poppins'];

const THEMES: { value: DefaultTheme; label: string }[] = [
  { value: 'system', label: 'Automatic (the reader’s system setting)' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * The customization form: the draft is local until saved; Save sends the change through the
 * customization operation, and the server's answer (or its error, word for word) comes back here.
 * Read-only callers see every value with the controls disabled and no buttons.
 */
export function CustomizeForm(props: { orgId: string; siteId: string; stored: SiteCustomization; canEdit: boolean }) {
  const { stores } = useApp();
  const { stored, canEdit } = props;
  const [draft, setDraft] = useState<CustomizationDraft>(() => draftOf(stored));
  // The customization the draft started from: "changed" compares with it.
  const [base, setBase] = useState(stored);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const [said, setSaid] = useState('');
  const baseDraft = useMemo(() => draftOf(base), [base]);
  const dirty = !sameDraft(draft, baseDraft);
  const latest = useRef(draft);
  latest.current = draft;

  // A newer customization from the store (a reload): shown, unless the person is in the middle of changes.
  useEffect(() => {
    if (stored === base) return;
    if (sameDraft(latest.current, baseDraft)) setDraft(draftOf(stored, latest.current.links));
    setBase(stored);
  }, [stored]);

  const edit = (change: Partial<CustomizationDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setSaid('');
  };

  const save = async () => {
    const result = changeOf(draft, base);
    if ('problem' in result) {
      setError(result.problem);
      return;
    }
    setSaving(true);
    setError('');
    try {
      const saved = await stores.updateSiteCustomization(props.orgId, props.siteId, result.change);
      setBase(saved);
      setDraft(draftOf(saved, latest.current.links));
      setSaid('Saved');
    } catch (err) {
      setError(describeError(err));
    } finally {
      setSaving(false);
    }
  };

  const off = !canEdit || saving;
  return (
    <form
      class="customize-form"
      data-testid="customize-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <fieldset>
        <legend>Brand</legend>
        <div class="customize-pair">
          <ColorField
            label="Primary colour"
            value={draft.primaryLight}
            disabled={off}
            testid="customize-primary"
            onChange={(primaryLight) => edit({ primaryLight })}
          />
          <ColorField
            label="Primary colour, dark theme"
            value={draft.primaryDark}
            disabled={off}
            testid="customize-primary-dark"
            onChange={(primaryDark) => edit({ primaryDark })}
          />
        </div>
        <Field label="Logo" hint="An image URL (https://…), shown instead of the site title.">
          <input
            type="url"
            value={draft.logoLight}
            placeholder="https://example.com/logo.svg"
            disabled={off}
            data-testid="customize-logo"
            onInput={(event) => edit({ logoLight: event.currentTarget.value })}
          />
        </Field>
        <Field label="Logo, dark theme" hint="Leave empty to use the same logo in both themes.">
          <input
            type="url"
            value={draft.logoDark}
            placeholder="Same as the light theme"
            disabled={off}
            data-testid="customize-logo-dark"
            onInput={(event) => edit({ logoDark: event.currentTarget.value })}
          />
        </Field>
        <FaviconField draft={draft} disabled={off} onChange={edit} />
        <Field label="Font" hint="The name of a font family; readers without it see their system font.">
          <input
            type="text"
            value={draft.font}
            list="customize-fonts"
            maxLength={64}
            disabled={off}
            data-testid="customize-font"
            onInput={(event) => edit({ font: event.currentTarget.value })}
          />
          <datalist id="customize-fonts">
            {FONTS.map((font) => (
              <option key={font} value={font} />
            ))}
          </datalist>
        </Field>
      </fieldset>

      <HeaderLinksEditor
        links={draft.links}
        disabled={off}
        onChange={(key, change) => {
          setDraft((d) => withLink(d, key, change));
          setSaid('');
        }}
        onMove={(key, by) => setDraft((d) => movedLink(d, key, by))}
        onRemove={(key) => setDraft((d) => ({ ...d, links: d.links.filter((l) => l.key !== key) }))}
        onAdd={(link) => setDraft((d) => ({ ...d, links: [...d.links, link] }))}
      />

      <fieldset>
        <legend>Reading</legend>
        <Field
          label="Theme"
          hint="The theme readers see first; they can still switch with the theme toggle. Automatic follows each reader’s system setting."
        >
          <select
            value={draft.theme}
            disabled={off}
            data-testid="customize-theme"
            onChange={(event) => edit({ theme: event.currentTarget.value as DefaultTheme })}
          >
            {THEMES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        <label class="toggle">
          <input
            type="checkbox"
            checked={draft.pagination}
            disabled={off}
            data-testid="customize-pagination"
            onChange={(event) => edit({ pagination: event.currentTarget.checked })}
          />
          Previous and next links at the bottom of pages
        </label>
      </fieldset>

      <p class="form-message" role="alert" data-testid="customize-error">
        {error}
      </p>
      {canEdit && (
        <div class="customize-actions">
          <button type="submit" class="primary" disabled={saving || !dirty} data-testid="customize-save">
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            disabled={saving || !dirty}
            data-testid="customize-discard"
            onClick={() => {
              setDraft(draftOf(base, latest.current.links));
              setError('');
            }}
          >
            Discard changes
          </button>
          <span class="muted" role="status" data-testid="customize-status">
            {said}
          </span>
        </div>
      )}
    </form>
  );
}
