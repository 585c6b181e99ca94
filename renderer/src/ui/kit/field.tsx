import type { ComponentChildren } from 'preact';

/**
 * A labelled form field: the caption, its control, a hint under it and the field's own error
 * (announced when it appears). A bare <label> is the app's field style (ui/styles/base.css).
 */
export function Field(props: {
  label: ComponentChildren;
  hint?: ComponentChildren;
  error?: string;
  children: ComponentChildren;
}) {
  return (
    <label>
      <span>{props.label}</span>
      {props.children}
      {props.hint && <span class="muted field-hint">{props.hint}</span>}
      {props.error && (
        <span class="form-message" role="alert">
          {props.error}
        </span>
      )}
    </label>
  );
}
