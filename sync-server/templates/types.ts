/**
 * A built-in space template: a small tree of pages written in GitBook's
 * markdown, with named references (`contentRefs`) a caller may fill in.
 *
 * Page bodies use two kinds of placeholders, replaced when the template is
 * applied (expand.ts):
 * - `{{page:<ref>}}`: the link target of another page of the same template
 *   (its id is only known once the pages are planned);
 * - `{{ref:<name>}}`: the value of the named reference, or its fallback.
 * The API reference template also has `{{openapi-operations}}`, replaced by
 * operation blocks of the spec given as its `openapi` reference.
 */

/** The kinds of GitBook's ContentRef that a template's reference may take. */
export type TemplateRefKind = 'url' | 'openapi';

export interface TemplateRef {
  name: string;
  kinds: readonly TemplateRefKind[];
  description: string;
  /** Used when the caller gives no value: usually a `{{page:<ref>}}` of the template itself. */
  fallback: string;
}

export interface TemplatePage {
  /** Unique within the template; the target of `{{page:<ref>}}`. */
  ref: string;
  title: string;
  emoji?: string;
  description?: string;
  markdown: string;
  pages?: readonly TemplatePage[];
}

export interface SpaceTemplate {
  id: string;
  title: string;
  description: string;
  emoji: string;
  refs: readonly TemplateRef[];
  pages: readonly TemplatePage[];
}
