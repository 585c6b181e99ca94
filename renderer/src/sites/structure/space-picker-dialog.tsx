import { useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { AsyncSection } from '../../ui/kit/async-section';
import { FormDialog, FormError } from '../../ui/kit/form-dialog';
import { useResource } from '../../ui/kit/hooks';
import { checks } from './text-dialog';

/**
 * Picks one of the organization's spaces to publish (as a site space, a variant, or a new
 * section, which may also get a title). Spaces already in the target are left out of the list.
 */
export function SpacePickerDialog(props: {
  orgId: string;
  title: string;
  submitLabel: string;
  /** Spaces not offered (already published where this adds). */
  exclude: ReadonlySet<string>;
  /** Also asks for a section title (empty: the space's title). */
  withSectionTitle?: boolean;
  hint?: string;
  add: (spaceId: string, sectionTitle?: string) => Promise<unknown>;
  onClose: () => void;
  testid: string;
}) {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.orgSpaces, props.orgId);
  const [spaceId, setSpaceId] = useState('');
  const [title, setTitle] = useState('');
  const submit = async () => {
    if (!spaceId) throw new FormError('Choose a space.');
    const sectionTitle = props.withSectionTitle && title.trim() ? checks.sectionTitle(title) : undefined;
    await props.add(spaceId, sectionTitle);
    props.onClose();
  };
  return (
    <FormDialog
      title={props.title}
      submitLabel={props.submitLabel}
      testid={props.testid}
      submitTestid={`${props.testid}-save`}
      onClose={props.onClose}
      onSubmit={submit}
    >
      <AsyncSection state={state} what="the organization's spaces" retry={retry}>
        {(spaces) => {
          const offered = spaces
            .filter((s) => !props.exclude.has(s.id))
            .sort((a, b) => (a.title || '').localeCompare(b.title || ''));
          return offered.length === 0 ? (
            <p class="muted" data-testid="space-picker-none">
              {spaces.length === 0
                ? 'This organization has no space yet. Create one from its home first.'
                : 'Every space of the organization is already here.'}
            </p>
          ) : (
            <label>
              Space
              <select
                value={spaceId}
                data-testid="space-picker-select"
                autoFocus
                onChange={(event) => setSpaceId(event.currentTarget.value)}
              >
                <option value="">Choose a space…</option>
                {offered.map((space) => (
                  <option key={space.id} value={space.id}>
                    {space.emoji ? `${space.emoji} ` : ''}
                    {space.title || 'Untitled space'}
                  </option>
                ))}
              </select>
            </label>
          );
        }}
      </AsyncSection>
      {props.withSectionTitle && (
        <label>
          Section title (optional)
          <input
            type="text"
            value={title}
            maxLength={128}
            placeholder="The space's title"
            data-testid="space-picker-title"
            onInput={(event) => setTitle(event.currentTarget.value)}
          />
        </label>
      )}
      {props.hint && <p class="muted site-dialog-hint">{props.hint}</p>}
    </FormDialog>
  );
}
