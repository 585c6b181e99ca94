import type { Paragraph, Parent, Root, RootContent } from 'mdast';
import type { Schema } from 'hast-util-sanitize';
import { defaultSchema } from 'hast-util-sanitize';
import { parseLiquidTagLine, type LiquidTag } from '../../../shared/markdown/liquid-tags';
import { parseOpenApiTagLine, type OpenApiBlockRef } from '../../../shared/markdown/openapi-block';
import { plainText } from '../../../shared/markdown/parse';

export { separateLiquidTags } from '../../../shared/markdown/liquid-tags';

/**
 * GitBook's liquid blocks in the reading view: `{% hint %}`, `{% tabs %}` /
 * `{% tab %}`, `{% content-ref %}` become boxes (mdast nodes with a hast
 * element name and a `folio-*` class), `{% embed %}` and `{% file %}` become
 * link cards. Tags must stand on lines of their own and are recognized outside
 * code only, as GitBook's Git sync writes them. Only `folio-*` class names get
 * through the sanitizer (see READING_SCHEMA).
 */

/** The reading view draws every block tag but `{% code %}` (its code block shows as is). */
function tagOf(node: RootContent): LiquidTag | undefined {
  if (node.type !== 'paragraph') return undefined;
  // Plain text: GFM's autolinks split `url="https://…"` into text and a link.
  const tag = parseLiquidTagLine(plainText(node));
  return tag?.name === 'code' ? undefined : tag;
}

function box(classes: string[], children: RootContent[], tag = 'div'): RootContent {
  // A paragraph node carrying hast data: mdast-util-to-hast builds the element named in hName.
  return {
    type: 'paragraph',
    data: { hName: tag, hProperties: { className: classes } },
    children: children as Paragraph['children'],
  };
}

function label(text: string, cls: string): RootContent {
  return box([cls], [{ type: 'text', value: text }] as unknown as RootContent[], 'p');
}

function linkCard(url: string, text: string, cls: string): RootContent {
  return box(
    [cls],
    [{ type: 'link', url, children: [{ type: 'text', value: text }] }] as unknown as RootContent[],
    'p',
  );
}

/** The text a card shows for `url`: the URL itself when it is a web or relative one, else `fallback`. */
function shown(url: string | undefined, fallback: string): string {
  return url && /^(https?:\/\/|\/|\.{0,2}\/?[\w.-])/i.test(url) && !/^[a-z][a-z0-9+.-]*:(?!\/\/)/i.test(url)
    ? url
    : fallback;
}

const HINT_TITLES: Record<string, string> = { info: 'Info', success: 'Success', warning: 'Warning', danger: 'Danger' };

/** The API operation block a paragraph opens (its first line is the tag), and whether it also closes it. */
function openApiOf(node: RootContent): { ref: OpenApiBlockRef; closed: boolean } | undefined {
  if (node.type !== 'paragraph') return undefined;
  const lines = plainText(node).split('\n');
  const ref = parseOpenApiTagLine(lines[0] ?? '');
  if (!ref) return undefined;
  return { ref, closed: lines.length > 1 && endsOpenApi(lines[lines.length - 1]!, ref.form) };
}

function endsOpenApi(line: string, form: OpenApiBlockRef['form']): boolean {
  return new RegExp(`^\\s*\\{%-?\\s*end${form}\\s*-?%\\}\\s*$`).test(line);
}

/**
 * The card of an API operation block: method badge, path and spec, as the editor shows it (the
 * reading view has no spec to read the summary from; the published site draws the operation).
 */
function apiCard(ref: OpenApiBlockRef): RootContent {
  const method = (ref.method || '?').toUpperCase();
  const known = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].includes(method);
  const span = (cls: string, text: string, tag = 'span') =>
    box(cls.split(' '), [{ type: 'text', value: text }] as unknown as RootContent[], tag);
  const head = box(
    ['folio-api-head'],
    [
      span(`folio-api-method folio-api-method-${known ? method.toLowerCase() : 'other'}`, method),
      span('folio-api-path', ref.path || '/path'),
    ],
    'span',
  );
  return box(['folio-api-card'], [head, span('folio-api-spec', ref.spec || ref.src || 'No spec chosen')]);
}

/** Replaces liquid block tags among `parent`'s children (recursively) by boxes. */
export function liftGitbookBlocks(parent: Root | Parent): void {
  const out: RootContent[] = [];
  const stack: { tag: LiquidTag; children: RootContent[] }[] = [];
  const push = (node: RootContent) => (stack.length ? stack[stack.length - 1]!.children : out).push(node);
  // Inside an API operation block: its fallback text (up to the end tag) is not shown, the card stands for it.
  let skippingTo: OpenApiBlockRef['form'] | undefined;
  for (const child of parent.children as RootContent[]) {
    if (skippingTo) {
      const text = child.type === 'paragraph' ? plainText(child).split('\n') : [];
      if (endsOpenApi(text[text.length - 1] ?? '', skippingTo)) skippingTo = undefined;
      continue;
    }
    const api = openApiOf(child);
    if (api) {
      push(apiCard(api.ref));
      if (!api.closed) skippingTo = api.ref.form;
      continue;
    }
    const tag = tagOf(child);
    if (!tag) {
      if ('children' in child && child.type !== 'paragraph') liftGitbookBlocks(child as Parent);
      push(child);
      continue;
    }
    if (tag.name === 'embed' && !tag.end)
      push(linkCard(tag.attrs.url ?? '', shown(tag.attrs.url, 'Embed'), 'folio-embed'));
    else if (tag.name === 'file' && !tag.end)
      push(linkCard(tag.attrs.src ?? '', shown(tag.attrs.src, 'File').split('/').pop() || 'File', 'folio-file'));
    else if (tag.name === 'file' && tag.end) continue;
    else if (!tag.end) stack.push({ tag, children: [] });
    else {
      const open = stack.pop();
      if (!open) continue; // a stray end tag: dropped
      const { tag: o, children } = open;
      if (o.name === 'hint') {
        const style = HINT_TITLES[o.attrs.style ?? ''] ? o.attrs.style! : 'info';
        push(box(['folio-hint', `folio-hint-${style}`], [label(HINT_TITLES[style]!, 'folio-hint-title'), ...children]));
      } else if (o.name === 'tab')
        push(box(['folio-tab'], [label(o.attrs.title ?? 'Tab', 'folio-tab-title'), ...children]));
      else if (o.name === 'tabs') push(box(['folio-tabs'], children));
      else push(box(['folio-content-ref'], children));
    }
  }
  // Unclosed blocks keep their content, unboxed.
  while (stack.length) {
    const open = stack.shift()!;
    out.push(...open.children);
  }
  parent.children = out as Parent['children'];
}

/** The GitHub sanitizer schema, plus `folio-*` class names on the boxes' elements. */
export const READING_SCHEMA: Schema = {
  ...defaultSchema,
  attributes: {
    ...defaultSchema.attributes,
    div: [...(defaultSchema.attributes?.div ?? []), ['className', /^folio-[a-z-]+$/]],
    p: [...(defaultSchema.attributes?.p ?? []), ['className', /^folio-[a-z-]+$/]],
    span: [...(defaultSchema.attributes?.span ?? []), ['className', /^folio-[a-z-]+$/]],
  },
};
