import { useState } from 'preact/hooks';
import { FormDialog, FormError } from '../../ui/kit/form-dialog';

/**
 * A dialog that changes one text (a title, a path): `check` words what is wrong before anything
 * is sent, and `save` sends it; either refusal shows in the dialog, which stays open.
 */
export function TextDialog(props: {
  title: string;
  label: string;
  initial: string;
  submitLabel?: string;
  hint?: string;
  /** Returns the value to save, or throws a FormError saying what is wrong. */
  check: (value: string) => string;
  save: (value: string) => Promise<unknown>;
  onClose: () => void;
  testid: string;
}) {
  const [value, setValue] = useState(props.initial);
  return (
    <FormDialog
      title={props.title}
      submitLabel={props.submitLabel ?? 'Save'}
      testid={props.testid}
      submitTestid={`${props.testid}-save`}
      onClose={props.onClose}
      onSubmit={async () => {
        await props.save(props.check(value));
        props.onClose();
      }}
    >
      <label>
        {props.label}
        <input
          type="text"
          value={value}
          autoFocus
          data-testid={`${props.testid}-input`}
          onInput={(event) => setValue(event.currentTarget.value)}
        />
      </label>
      {props.hint && <p class="muted site-dialog-hint">{props.hint}</p>}
    </FormDialog>
  );
}

/** The API's limits, worded for people. */
export const checks = {
  sectionTitle(value: string): string {
    const title = value.trim();
    if (title.length < 2) throw new FormError('A section title needs at least 2 characters.');
    if (title.length > 128) throw new FormError('A section title has at most 128 characters.');
    return title;
  },
  groupTitle(value: string): string {
    const title = value.trim();
    if (title.length < 1) throw new FormError('A group needs a title.');
    if (title.length > 100) throw new FormError('A group title has at most 100 characters.');
    return title;
  },
  path(value: string): string {
    const path = value.trim().replace(/^\/+/, '');
    if (path.length < 1) throw new FormError('A path needs at least one character.');
    if (path.length > 100) throw new FormError('A path has at most 100 characters.');
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(path))
      throw new FormError(
        'A path starts with a letter or digit and holds only letters, digits, dots, dashes and underscores.',
      );
    return path;
  },
};
