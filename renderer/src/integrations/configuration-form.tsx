import { useMemo, useState } from 'preact/hooks';
import { ApiError, describeError } from '../api/client';
import { Field } from '../ui/kit/field';
import {
  fieldsOf,
  initialValues,
  serverErrors,
  toConfiguration,
  usesComponent,
  validate,
  type ConfigurationSchema,
  type FormErrors,
  type FormField,
  type FormValues,
} from './configuration-form-model';

/**
 * The form an integration's configuration schema describes (configuration-form-model.ts): one
 * control per property, required ones marked, defaults filled in; checked before sending, and the
 * server's refusal shown next to the fields it names. `save` gets the configuration to send.
 */
export function ConfigurationForm(props: {
  schema: ConfigurationSchema | undefined;
  stored?: Record<string, unknown>;
  submitLabel: string;
  save: (configuration: Record<string, unknown>) => Promise<void>;
  onCancel?: () => void;
  testid?: string;
}) {
  const fields = useMemo(() => fieldsOf(props.schema), [props.schema]);
  const [values, setValues] = useState<FormValues>(() => initialValues(props.schema, props.stored));
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const idPrefix = props.testid ?? 'config';

  if (usesComponent(props.schema))
    return <p class="muted">This integration is configured through its own screens, once it runs.</p>;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    const found = validate(fields, values);
    setErrors(found);
    setSaved(false);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await props.save(toConfiguration(fields, values, props.stored));
      setSaved(true);
    } catch (err) {
      setErrors(
        err instanceof ApiError && err.status === 400 ? serverErrors(fields, err.message) : { '': describeError(err) },
      );
    } finally {
      setBusy(false);
    }
  };
  const set = (name: string, value: string | boolean) => {
    setValues((old) => ({ ...old, [name]: value }));
    setSaved(false);
  };
  return (
    <form class="int-config-form" data-testid={props.testid} onSubmit={(event) => void submit(event)} noValidate>
      {fields.length === 0 && <p class="muted">Nothing to configure.</p>}
      {fields.map((field) => (
        <FieldControl
          key={field.name}
          id={`${idPrefix}-${field.name}`}
          field={field}
          value={values[field.name]}
          error={errors[field.name]}
          set={(value) => set(field.name, value)}
        />
      ))}
      <p class="form-message" role="alert" data-testid="config-error">
        {errors[''] ?? ''}
      </p>
      <div class="int-form-actions">
        {props.onCancel && (
          <button type="button" onClick={() => props.onCancel?.()}>
            Cancel
          </button>
        )}
        <button type="submit" class="primary" disabled={busy} aria-busy={busy} data-testid="config-save">
          {props.submitLabel}
        </button>
        {saved && (
          <span class="muted" role="status" data-testid="config-saved">
            Saved
          </span>
        )}
      </div>
    </form>
  );
}

function FieldControl(props: {
  id: string;
  field: FormField;
  value: string | boolean | undefined;
  error: string | undefined;
  set: (value: string | boolean) => void;
}) {
  const { field, value, error } = props;
  const label = (
    <>
      {field.label}
      {field.required && (
        <span class="int-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
  const common = {
    name: field.name,
    'data-testid': `config-field-${field.name}`,
    'aria-invalid': error ? true : undefined,
    required: field.required,
  };
  if (field.kind === 'button')
    return (
      <div class="int-config-button">
        <span>{field.label}</span>
        <button type="button" disabled title="The integration handles this once it runs">
          {field.buttonText}
        </button>
        {field.description && <span class="muted field-hint">{field.description}</span>}
      </div>
    );
  if (field.kind === 'boolean')
    return (
      <label class="int-checkbox">
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(event) => props.set(event.currentTarget.checked)}
        />
        <span>
          {label}
          {field.description && <span class="muted field-hint">{field.description}</span>}
        </span>
        {error && (
          <span class="form-message" role="alert">
            {error}
          </span>
        )}
      </label>
    );
  return (
    <Field label={label} hint={field.description} error={error}>
      {field.kind === 'select' ? (
        <select {...common} value={String(value ?? '')} onChange={(event) => props.set(event.currentTarget.value)}>
          <option value="">{field.required ? 'Choose…' : 'None'}</option>
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input
          type="text"
          inputMode={field.kind === 'number' ? 'decimal' : undefined}
          {...common}
          value={String(value ?? '')}
          onInput={(event) => props.set(event.currentTarget.value)}
        />
      )}
    </Field>
  );
}
