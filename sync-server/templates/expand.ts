import type { SpaceTemplate, TemplatePage } from './types';

/**
 * Turns a template into the pages to insert, in depth-first order (a parent
 * before its children, so one batch can create them all), and fills in the
 * placeholders of their bodies (see types.ts).
 */

export interface FlatPage {
  page: TemplatePage;
  /** Index in the flat list of the parent page; undefined for a page at the root. */
  parent?: number;
}

export function flattenPages(template: SpaceTemplate): FlatPage[] {
  const out: FlatPage[] = [];
  const walk = (pages: readonly TemplatePage[], parent?: number) => {
    for (const page of pages) {
      const index = out.push(parent === undefined ? { page } : { page, parent }) - 1;
      if (page.pages) walk(page.pages, index);
    }
  };
  walk(template.pages);
  return out;
}

export interface Fill {
  /** The id each page ref was given. */
  pageIds: ReadonlyMap<string, string>;
  /** The value of each reference the caller gave (already checked and escaped for a link target). */
  refs: ReadonlyMap<string, string>;
  /** What replaces `{{openapi-operations}}`. */
  operations: string;
}

const PLACEHOLDER = /\{\{(page|ref):([a-z0-9-]+)\}\}|\{\{openapi-operations\}\}/g;

/** The body with its placeholders filled; a reference falls back to its template's fallback (itself filled). */
export function fillPlaceholders(template: SpaceTemplate, markdown: string, fill: Fill): string {
  const page = (ref: string) => {
    const id = fill.pageIds.get(ref);
    // Catalogue invariant (checked by the tests): every {{page:…}} names a page of the same template.
    if (!id) throw new Error(`template "${template.id}": no page "${ref}"`);
    return `/pages/${id}`;
  };
  const ref = (name: string) => {
    const given = fill.refs.get(name);
    if (given !== undefined) return given;
    const declared = template.refs.find((r) => r.name === name);
    if (!declared) throw new Error(`template "${template.id}": no reference "${name}"`);
    return declared.fallback.replace(/\{\{page:([a-z0-9-]+)\}\}/g, (_, r: string) => page(r));
  };
  return markdown.replace(PLACEHOLDER, (whole, kind?: string, name?: string) => {
    if (kind === 'page') return page(name!);
    if (kind === 'ref') return ref(name!);
    return fill.operations;
  });
}
