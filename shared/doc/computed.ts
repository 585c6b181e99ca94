/**
 * Computed pages: a page of kind 'computed' holds no markdown of its own but a
 * source (GitBook's ComputedContentSourceRevision) the server expands into
 * pages when content is read — today `builtin:openapi`: one page per tag of an
 * organization's OpenAPI spec, drawn from its latest version, so a new version
 * shows without anybody editing the space. The source is stored as a plain
 * object on the page's Y.Map; this module is the one place that reads it back
 * (defensively: a peer may have stored anything).
 */

/** How generated operations are laid out: a page per tag, or also a page per operation under its tag. */
export type OpenApiGrouping = 'by-tag' | 'by-operation';

/** GitBook's ComputedContentSourceRevisionOpenAPI, with the spec named by slug (its ContentRefOpenAPI). */
export interface ComputedOpenApiSource {
  readonly type: 'builtin:openapi';
  readonly dependencies: { readonly spec: { readonly ref: { readonly kind: 'openapi'; readonly spec: string } } };
  readonly props: { readonly models: boolean; readonly downloadLink?: boolean; readonly grouping?: OpenApiGrouping };
}

/** Every computed source Folio can expand. */
export type ComputedSource = ComputedOpenApiSource;

const SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The source of a computed page built from its parts (what the app and the
 * REST batch write). Only the fields GitBook defines are kept.
 */
export function openApiSource(
  spec: string,
  props: { models?: boolean; downloadLink?: boolean; grouping?: OpenApiGrouping } = {},
): ComputedOpenApiSource {
  return {
    type: 'builtin:openapi',
    dependencies: { spec: { ref: { kind: 'openapi', spec } } },
    props: {
      models: props.models === true,
      ...(props.downloadLink !== undefined ? { downloadLink: props.downloadLink } : {}),
      ...(props.grouping !== undefined ? { grouping: props.grouping } : {}),
    },
  };
}

/**
 * The valid source in `value`, normalized (unknown keys dropped), or
 * undefined when it is not one Folio can expand. A resolved dependency
 * (`{ref, value}`, as GitBook returns it) is accepted: only its `ref` counts.
 */
export function readComputedSource(value: unknown): ComputedSource | undefined {
  if (!isObject(value) || value.type !== 'builtin:openapi') return undefined;
  const deps = value.dependencies;
  const spec = isObject(deps) && isObject(deps.spec) ? deps.spec : undefined;
  const ref = spec && isObject(spec.ref) ? spec.ref : undefined;
  if (!ref || ref.kind !== 'openapi' || typeof ref.spec !== 'string' || !SLUG.test(ref.spec) || ref.spec.length > 100)
    return undefined;
  const props = isObject(value.props) ? value.props : {};
  const grouping = props.grouping === 'by-tag' || props.grouping === 'by-operation' ? props.grouping : undefined;
  return openApiSource(ref.spec, {
    models: props.models === true,
    ...(typeof props.downloadLink === 'boolean' ? { downloadLink: props.downloadLink } : {}),
    ...(grouping ? { grouping } : {}),
  });
}

/** The slug of the spec a source draws from. */
export function sourceSpecSlug(source: ComputedSource): string {
  return source.dependencies.spec.ref.spec;
}

/** Whether two sources are the same (stable field order: both come from openApiSource). */
export function sameSource(a: ComputedSource | undefined, b: ComputedSource | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
