import { Field } from '../../ui/kit/field';
import type { CustomizationDraft, FaviconKind } from './draft';

const KINDS: { value: FaviconKind; label: string }[] = [
  { value: 'none', label: 'Default' },
  { value: 'emoji', label: 'Emoji' },
  { value: 'image', label: 'Image' },
];

/** The favicon: the default one, an emoji, or an image per theme (URLs). */
export function FaviconField(props: {
  draft: CustomizationDraft;
  disabled: boolean;
  onChange: (change: Partial<CustomizationDraft>) => void;
}) {
  const { draft, disabled, onChange } = props;
  return (
    <fieldset class="favicon-field" data-testid="customize-favicon">
      <legend>Favicon</legend>
      <div class="favicon-kinds" role="radiogroup" aria-label="Favicon">
        {KINDS.map((kind) => (
          <label key={kind.value} class="toggle">
            <input
              type="radio"
              name="favicon-kind"
              value={kind.value}
              checked={draft.faviconKind === kind.value}
              disabled={disabled}
              data-testid={`customize-favicon-${kind.value}`}
              onChange={() => onChange({ faviconKind: kind.value })}
            />
            {kind.label}
          </label>
        ))}
      </div>
      {draft.faviconKind === 'emoji' && (
        <Field label="Emoji">
          <input
            type="text"
            value={draft.faviconEmoji}
            maxLength={16}
            placeholder="📘"
            class="favicon-emoji"
            disabled={disabled}
            data-testid="customize-favicon-emoji-input"
            onInput={(event) => onChange({ faviconEmoji: event.currentTarget.value })}
          />
        </Field>
      )}
      {draft.faviconKind === 'image' && (
        <>
          <Field label="Image URL">
            <input
              type="url"
              value={draft.faviconLight}
              placeholder="https://example.com/favicon.png"
              disabled={disabled}
              data-testid="customize-favicon-url"
              onInput={(event) => onChange({ faviconLight: event.currentTarget.value })}
            />
          </Field>
          <Field label="Image URL, dark theme" hint="Leave empty to use the same image.">
            <input
              type="url"
              value={draft.faviconDark}
              placeholder="Same as the light theme"
              disabled={disabled}
              data-testid="customize-favicon-url-dark"
              onInput={(event) => onChange({ faviconDark: event.currentTarget.value })}
            />
          </Field>
        </>
      )}
    </fieldset>
  );
}
