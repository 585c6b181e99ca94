import type { Spec } from '../openapi/openapi-api';
import { Field } from '../ui/kit/field';
import { GROUPINGS, type ApiReferenceSettings } from './api-reference-model';

/**
 * The settings of an API reference page — which of the organization's specs, a page per tag or
 * per operation, and whether a "Models" page is added — in the creation dialog and on the page
 * itself (where each change is written at once). Controlled: `onChange` gets the whole new value.
 */
export function SourceSettings(props: {
  value: ApiReferenceSettings;
  onChange: (next: ApiReferenceSettings) => void;
  specs: readonly Spec[];
  /** Makes the radio group's name and the hints' ids unique on the screen. */
  idPrefix: string;
}) {
  const { value, onChange, idPrefix } = props;
  const set = (patch: Partial<ApiReferenceSettings>) => onChange({ ...value, ...patch });
  const specs = [...props.specs].sort((a, b) => a.slug.localeCompare(b.slug));
  // A page may name a spec the organization no longer has: it stays shown (and chosen) as such.
  const missing = value.spec !== '' && !specs.some((s) => s.slug === value.spec);
  return (
    <div class="ar-settings">
      <div class="ar-spec">
        <Field label="OpenAPI spec" hint="Pages are generated from its latest version.">
          <select
            data-testid="ar-spec"
            value={value.spec}
            onChange={(event) => set({ spec: event.currentTarget.value })}
          >
            {missing && <option value={value.spec}>{`${value.spec} (not found)`}</option>}
            {specs.map((spec) => (
              <option key={spec.id} value={spec.slug}>
                {spec.slug + specNote(spec)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <fieldset class="ar-grouping">
        <legend>Pages</legend>
        {GROUPINGS.map((g) => (
          <label key={g.value} class="ar-choice">
            <input
              type="radio"
              name={`${idPrefix}-grouping`}
              value={g.value}
              checked={value.grouping === g.value}
              data-testid={`ar-grouping-${g.value}`}
              aria-describedby={`${idPrefix}-grouping-${g.value}-hint`}
              onChange={() => set({ grouping: g.value })}
            />
            <span class="ar-choice-text">
              <span class="ar-choice-label">{g.label}</span>
              <span class="muted" id={`${idPrefix}-grouping-${g.value}-hint`}>
                {g.hint}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      <label class="ar-choice ar-models">
        <input
          type="checkbox"
          checked={value.models}
          data-testid="ar-models"
          aria-describedby={`${idPrefix}-models-hint`}
          onChange={(event) => set({ models: event.currentTarget.checked })}
        />
        <span class="ar-choice-text">
          <span class="ar-choice-label">Include models</span>
          <span class="muted" id={`${idPrefix}-models-hint`}>
            A “Models” page with the schemas the operations use.
          </span>
        </span>
      </label>
    </div>
  );
}

/** Said after a spec's slug when it cannot generate pages yet. */
function specNote(spec: Spec): string {
  if (spec.lastVersion) return '';
  if (spec.processingState !== 'complete') return ' (processing)';
  return spec.lastProcessErrorCode ? ' (failed)' : '';
}
