import type { EditorState, Range } from '@codemirror/state';
import { Decoration } from '@codemirror/view';
import { syntaxTree } from '@codemirror/language';
import { parseIntegrationTagLine } from '../../../../shared/markdown/integration-block';
import { integrationBlocksFacet } from './catalog';
import { IntegrationBlockWidget } from './block-widget';

/**
 * Live preview of integration blocks: each tag line in view, outside code and not revealed (the
 * cursor is elsewhere), is drawn as the block (block-widget.ts). The render comes from the catalog's
 * cache: never a network wait here; its arrival redraws (live-preview.ts subscribes).
 */

const inCode = (state: EditorState, pos: number) => {
  for (let n: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(state).resolveInner(pos, 1); n; n = n.parent)
    if (/^(FencedCode|CodeBlock|CodeText)$/.test(n.name)) return true;
  return false;
};

/** The decorations of the integration tags in `visible`, the lines in `revealed` left as source. */
export function integrationBlockDecorations(
  state: EditorState,
  visible: ReadonlyArray<{ from: number; to: number }>,
  revealed: (line: number) => boolean,
): Range<Decoration>[] {
  const out: Range<Decoration>[] = [];
  const catalog = state.facet(integrationBlocksFacet);
  for (const { from, to } of visible) {
    for (let pos = state.doc.lineAt(from).from; pos <= to;) {
      const line = state.doc.lineAt(pos);
      pos = line.to + 1;
      if (!line.text.includes('{%') || revealed(line.number)) continue;
      const ref = parseIntegrationTagLine(line.text);
      if (!ref || inCode(state, line.from)) continue;
      const title = catalog?.title(ref.integration, ref.block) ?? `${ref.integration}/${ref.block}`;
      const render = catalog
        ? catalog.rendered(ref)
        : ({ status: 'error', message: 'Integration blocks render when the app is connected to a server' } as const);
      out.push(
        Decoration.replace({ widget: new IntegrationBlockWidget(ref, title, render) }).range(line.from, line.to),
      );
    }
  }
  return out;
}
