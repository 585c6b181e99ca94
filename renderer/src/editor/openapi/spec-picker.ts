import {
  startCompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import type { EditorState } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { openApiCatalogFacet } from './catalog';

/**
 * The spec picker of an API operation block: with the cursor in the `spec="…"` of an
 * `{% openapi-operation %}` tag, the completion lists the organization's specs by slug; choosing
 * one writes it there (one CodeMirror change of the attribute's value) and selects the path to
 * fill in next. Without a catalog, or with no specs yet, the placeholder stays for the writer.
 */

const TAG = /^\s*\{%-?\s*openapi-operation\b/;
const ATTR = /\b(spec|path|method)\s*=\s*"([^"]*)"/g;

/** An attribute value's range on a tag line (document offsets, between the quotes). */
export interface AttrRange {
  name: string;
  from: number;
  to: number;
  value: string;
}

/** The `spec`/`path`/`method` values of the `openapi-operation` tag on the line at `pos`. */
export function operationAttrsAt(state: EditorState, pos: number): AttrRange[] | undefined {
  const line = state.doc.lineAt(pos);
  if (!TAG.test(line.text)) return undefined;
  const out: AttrRange[] = [];
  for (const m of line.text.matchAll(ATTR)) {
    const from = line.from + m.index + m[0].length - 1 - m[2]!.length;
    out.push({ name: m[1]!, from, to: from + m[2]!.length, value: m[2]! });
  }
  return out;
}

/** The `spec` value the cursor (or selection) at `from..to` lies in, if any. */
export function specAttrAt(state: EditorState, from: number, to = from): AttrRange | undefined {
  return operationAttrsAt(state, from)?.find((a) => a.name === 'spec' && a.from <= from && a.to >= to);
}

/** The completion source of the picker (async: the spec list may still be loading). */
export async function specCompletions(context: CompletionContext): Promise<CompletionResult | null> {
  const sel = context.state.selection.main;
  const attr = specAttrAt(context.state, sel.from, sel.to);
  if (!attr) return null;
  const catalog = context.state.facet(openApiCatalogFacet);
  if (!catalog) return null;
  const slugs = await catalog.loadSpecSlugs();
  if (slugs.length === 0) return null;
  const options: Completion[] = slugs.map((slug) => ({
    label: slug,
    detail: 'OpenAPI spec',
    type: 'folio-spec',
    apply: (view: EditorView) => chooseSpec(view, slug),
  }));
  // Typed text filters the list, unless the placeholder is still selected (then every spec shows).
  const typed = sel.empty ? context.state.sliceDoc(attr.from, sel.head) : '';
  return { from: attr.from, to: attr.to, options, filter: Boolean(typed) };
}

/** Writes `slug` as the block's spec and selects the path value (the next thing to fill in). */
export function chooseSpec(view: EditorView, slug: string): void {
  const attr = specAttrAt(view.state, view.state.selection.main.from, view.state.selection.main.to);
  if (!attr) return;
  const delta = slug.length - (attr.to - attr.from);
  const path = operationAttrsAt(view.state, attr.from)?.find((a) => a.name === 'path');
  const selection =
    path && path.from > attr.to
      ? { anchor: path.from + delta, head: path.to + delta }
      : { anchor: attr.from + slug.length };
  view.dispatch({ changes: { from: attr.from, to: attr.to, insert: slug }, selection, userEvent: 'input.complete' });
}

/** Opens the picker when the cursor sits in a spec value (after the `/` menu inserted a block). */
export function openSpecPicker(view: EditorView): void {
  const sel = view.state.selection.main;
  if (specAttrAt(view.state, sel.from, sel.to) && view.state.facet(openApiCatalogFacet)) startCompletion(view);
}
