import type { JsonObject } from '../openapi-specs/bundles';
import { specOutline } from '../openapi-specs/outline';

/**
 * The `{{openapi-operations}}` of the API reference template: one GitBook
 * `{% openapi-operation %}` block per operation of the spec, under a heading
 * per tag; or, without a processed spec, one block whose text says how to
 * connect it (the block's body is what GitBook shows where it cannot draw
 * the operation).
 */

/** More blocks than this make a page nobody scrolls; the rest are listed as a hint. */
export const MAX_OPERATION_BLOCKS = 40;

interface Operation {
  path: string;
  method: string;
  tag: string;
}

const block = (slug: string, path: string, method: string, body: string) =>
  `{% openapi-operation spec="${slug}" path="${path}" method="${method}" %}\n${body}\n{% endopenapi-operation %}`;

/** Operations of a bundled spec by tag (the spec's outline); paths that cannot sit in a block attribute are skipped. */
export function operationsOf(bundle: unknown): Operation[] {
  if (!bundle || typeof bundle !== 'object' || Array.isArray(bundle)) return [];
  return specOutline(bundle as JsonObject).tags.flatMap((tag) =>
    tag.operations
      .filter((op) => !/["`\n\r%]/.test(op.path))
      .map((op) => ({ path: op.path, method: op.method, tag: tag.title })),
  );
}

/** The placeholder block: the spec slug to create, and how. */
export function placeholderBlock(slug: string, processing: boolean): string {
  const how = processing
    ? `The OpenAPI spec \`${slug}\` is still being processed. When it is ready, set \`path\` and \`method\` of this block to one of its operations, or add more blocks from the \`/\` menu.`
    : `This block shows one operation of your OpenAPI spec. To connect it, add your spec to the organization (**OpenAPI specs → Add a spec**, by URL or upload) with the slug \`${slug}\`, then set \`path\` and \`method\` to one of its operations. Add a block per operation from the \`/\` menu.`;
  return block(slug, '/pets', 'get', how);
}

/** Blocks for every operation (grouped by first tag), or undefined when the spec has none. */
export function operationBlocks(slug: string, bundle: unknown): string | undefined {
  const operations = operationsOf(bundle);
  if (operations.length === 0) return undefined;
  const shown = operations.slice(0, MAX_OPERATION_BLOCKS);
  const byTag = new Map<string, Operation[]>();
  for (const op of shown) byTag.set(op.tag, [...(byTag.get(op.tag) ?? []), op]);
  const sections = [...byTag].map(
    ([tag, ops]) =>
      `## ${tag.replace(/[\r\n]+/g, ' ')}\n\n` +
      ops
        .map((op) =>
          block(slug, op.path, op.method, `\`${op.method.toUpperCase()} ${op.path}\` of the \`${slug}\` spec.`),
        )
        .join('\n\n'),
  );
  const rest = operations.length - shown.length;
  if (rest > 0)
    sections.push(
      `{% hint style="info" %}\n${rest} more operation${rest === 1 ? '' : 's'} of \`${slug}\` can be added from the \`/\` menu.\n{% endhint %}`,
    );
  return sections.join('\n\n');
}
