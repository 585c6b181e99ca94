import { Field } from '../../ui/kit/field';
import { colorProblem, isHexColor, longHex } from './draft';

/**
 * A colour: the browser's colour picker and the hex code beside it, kept in step. A code that is
 * not a colour is said under the field (and keeps the form from saving).
 */
export function ColorField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  testid: string;
}) {
  const { value } = props;
  const error = value.trim() === '' ? undefined : colorProblem(value);
  return (
    <Field label={props.label} error={error}>
      <span class="color-field">
        <input
          type="color"
          value={isHexColor(value.trim()) ? longHex(value.trim()) : '#000000'}
          disabled={props.disabled}
          aria-label={`${props.label} (picker)`}
          data-testid={`${props.testid}-picker`}
          onInput={(event) => props.onChange(event.currentTarget.value)}
        />
        <input
          type="text"
          value={value}
          maxLength={7}
          spellcheck={false}
          autocomplete="off"
          placeholder="#3366ff"
          disabled={props.disabled}
          aria-invalid={error ? true : undefined}
          data-testid={props.testid}
          onInput={(event) => props.onChange(event.currentTarget.value)}
        />
      </span>
    </Field>
  );
}
