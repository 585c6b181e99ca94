import { Icon } from '../../ui/kit/icon';
import { newLink, type LinkDraft, type LinkStyle } from './draft';

const STYLES: { value: LinkStyle; label: string }[] = [
  { value: 'link', label: 'Link' },
  { value: 'button-primary', label: 'Primary button' },
  { value: 'button-secondary', label: 'Secondary button' },
];

/**
 * The links of the published site's header: add, edit, remove and reorder. Rows are keyed by a
 * local id, so what is typed in one row stays put while others move or the list is saved.
 */
export function HeaderLinksEditor(props: {
  links: LinkDraft[];
  disabled: boolean;
  onChange: (key: string, change: Partial<LinkDraft>) => void;
  onMove: (key: string, by: -1 | 1) => void;
  onRemove: (key: string) => void;
  onAdd: (link: LinkDraft) => void;
}) {
  const { links, disabled } = props;
  return (
    <fieldset class="header-links" data-testid="header-links-editor">
      <legend>Header links</legend>
      {links.length === 0 && <p class="muted">No links in the header.</p>}
      <ol class="header-link-list">
        {links.map((link, i) => (
          <li key={link.key} class="header-link-row" data-testid="header-link">
            <input
              type="text"
              value={link.title}
              maxLength={128}
              placeholder="Title"
              aria-label={`Link ${i + 1} title`}
              disabled={disabled}
              class="header-link-title"
              data-testid="header-link-title"
              onInput={(event) => props.onChange(link.key, { title: event.currentTarget.value })}
            />
            <input
              type="url"
              value={link.url}
              placeholder={link.links.length ? 'Menu (no link)' : 'https://example.com'}
              aria-label={`Link ${i + 1} URL`}
              disabled={disabled}
              class="header-link-url"
              data-testid="header-link-url"
              onInput={(event) => props.onChange(link.key, { url: event.currentTarget.value })}
            />
            <select
              value={link.style}
              aria-label={`Link ${i + 1} style`}
              disabled={disabled}
              class="header-link-style"
              data-testid="header-link-style"
              onChange={(event) => props.onChange(link.key, { style: event.currentTarget.value as LinkStyle })}
            >
              {STYLES.map((s) => (
                <option key={s.value} value={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
            {!disabled && (
              <span class="header-link-actions">
                <button
                  type="button"
                  class="icon-button"
                  title="Move up"
                  aria-label={`Move link ${i + 1} up`}
                  disabled={i === 0}
                  data-testid="header-link-up"
                  onClick={() => props.onMove(link.key, -1)}
                >
                  <Icon name="chevron-down" class="icon-flip" />
                </button>
                <button
                  type="button"
                  class="icon-button"
                  title="Move down"
                  aria-label={`Move link ${i + 1} down`}
                  disabled={i === links.length - 1}
                  data-testid="header-link-down"
                  onClick={() => props.onMove(link.key, 1)}
                >
                  <Icon name="chevron-down" />
                </button>
                <button
                  type="button"
                  class="icon-button"
                  title="Remove"
                  aria-label={`Remove link ${i + 1}`}
                  data-testid="header-link-remove"
                  onClick={() => props.onRemove(link.key)}
                >
                  <Icon name="trash" />
                </button>
              </span>
            )}
            {link.links.length > 0 && (
              <p class="muted header-link-menu">
                Menu of {link.links.length} link{link.links.length === 1 ? '' : 's'}:{' '}
                {link.links.map((l) => l.title).join(', ')}
              </p>
            )}
          </li>
        ))}
      </ol>
      {!disabled && (
        <button type="button" class="small" data-testid="header-link-add" onClick={() => props.onAdd(newLink())}>
          <Icon name="plus" />
          Add a link
        </button>
      )}
    </fieldset>
  );
}
