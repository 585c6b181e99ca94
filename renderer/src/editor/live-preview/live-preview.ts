import type { Extension } from '@codemirror/state';
import { foldedRanges, syntaxTree } from '@codemirror/language';
import { Decoration, EditorView, ViewPlugin, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { yRemoteSelections } from 'y-codemirror.next';
import {
  blockWidgetsField,
  gitbookBlocksField,
  refreshLivePreview,
  remoteCaretsField,
  setRemoteCarets,
} from './block-fields';
import { openApiCatalogFacet } from '../openapi/catalog';
import { integrationBlocksFacet } from '../integrations/catalog';
import { buildInlineDecorations, RevealedLines } from './decorations';
import { expandableFolding } from './folding';
import { parseTagLine } from './gitbook-blocks';
import { fileIdOf, safeUrl } from './image-source';
import { openHref, type WidgetDeps } from './widgets';
import './live-preview.css';

/**
 * Obsidian-style live preview over the markdown source: away from the lines
 * holding the cursor, a selection or a collaborator's caret, syntax is hidden
 * and the text is drawn as it reads. The document stays markdown; only
 * decorations change. Inline decorations cover the visible ranges only and
 * are rebuilt per update (cheap: a screenful of syntax nodes); tables and
 * cards come from a state field (see block-fields.ts).
 */

export { refreshLivePreview };

/** What live preview needs from the app; both optional. */
export interface LivePreviewDeps {
  /** URL of an image/file source; default: `/files/<id>` unknown, other safe URLs as written. */
  resolveFile?: (src: string) => string | undefined;
  /** Opens another page (`/pages/<id>` links, content-ref cards). */
  openPage?: (pageId: string) => void;
}

/** The default resolution: web URLs and relative paths as written, uploaded files unknown (no signer). */
export function defaultResolveFile(src: string): string | undefined {
  return fileIdOf(src) ? undefined : safeUrl(src);
}

/** Where collaborators' carets and selections are, read from y-codemirror's remote-selection decorations. */
function remoteRanges(view: EditorView): Array<{ from: number; to: number }> {
  const set = view.plugin(yRemoteSelections)?.decorations;
  const out: Array<{ from: number; to: number }> = [];
  set?.between(0, view.state.doc.length, (from, to) => {
    out.push({ from, to });
  });
  return out;
}

function livePreviewPlugin(deps: WidgetDeps) {
  return ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      private remoteKey = '';
      /** Stops listening to the OpenAPI catalog (summaries arrive after the cards are drawn). */
      private unsubscribe: () => void;
      constructor(view: EditorView) {
        this.decorations = this.build(view);
        const catalog = view.state.facet(openApiCatalogFacet);
        const redraw = () => {
          if (view.dom.isConnected) view.dispatch({ effects: refreshLivePreview.of(null) });
        };
        const blocks = view.state.facet(integrationBlocksFacet);
        blocks?.installed(); // the `/` menu's integration blocks load with the editor, not with the first `/`
        const stops = [catalog?.subscribe(redraw), blocks?.subscribe(() => setTimeout(redraw, 0))];
        this.unsubscribe = () => stops.forEach((stop) => stop?.());
      }
      destroy() {
        this.unsubscribe();
      }
      update(update: ViewUpdate) {
        const remoteKey = this.remoteKeyOf(update.view);
        if (
          update.docChanged ||
          update.viewportChanged ||
          update.selectionSet ||
          remoteKey !== this.remoteKey ||
          syntaxTree(update.state) !== syntaxTree(update.startState) ||
          foldedRanges(update.state) !== foldedRanges(update.startState) ||
          update.transactions.some((t) => t.effects.some((e) => e.is(refreshLivePreview)))
        )
          this.decorations = this.build(update.view);
      }
      private remoteKeyOf(view: EditorView): string {
        return remoteRanges(view)
          .map((r) => `${r.from}-${r.to}`)
          .join(',');
      }
      private build(view: EditorView): DecorationSet {
        const remote = remoteRanges(view);
        const key = remote.map((r) => `${r.from}-${r.to}`).join(',');
        if (key !== this.remoteKey) {
          this.remoteKey = key;
          // Tables are drawn by a state field: tell it (after this update) where collaborators are.
          const carets = remote.map((r) => r.from);
          setTimeout(() => {
            if (view.dom.isConnected) view.dispatch({ effects: setRemoteCarets.of(carets) });
          }, 0);
        }
        const revealed = RevealedLines.of(view.state, [...view.state.selection.ranges, ...remote]);
        return Decoration.set(
          buildInlineDecorations(view.state, view.visibleRanges, revealed, view.state.field(gitbookBlocksField), deps),
          true,
        );
      }
    },
    { decorations: (v) => v.decorations },
  );
}

/** The link target under `pos`: a markdown link/autolink URL, or a GitBook tag's url/src. */
export function hrefAt(view: EditorView, pos: number): string | undefined {
  for (
    let node: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(view.state).resolveInner(pos, 1);
    node;
    node = node.parent
  ) {
    if (node.name === 'URL') return view.state.sliceDoc(node.from, node.to);
    if (node.name === 'Link' || node.name === 'Autolink' || node.name === 'Image') {
      const url = node.getChild('URL');
      return url ? view.state.sliceDoc(url.from, url.to) : undefined;
    }
  }
  const line = view.state.doc.lineAt(pos);
  const tag = parseTagLine({ from: line.from, text: line.text });
  return tag?.attrs.url ?? tag?.attrs.src;
}

/** Live preview: decorations, their styles, folding of expandables, and Ctrl/Cmd+click on links. */
export function livePreview(options: LivePreviewDeps = {}): Extension {
  const deps: WidgetDeps = {
    // Whatever the app resolves to, only safe URLs reach an img src or a link href.
    resolveFile: (src) => {
      const url = (options.resolveFile ?? defaultResolveFile)(src);
      return url === undefined ? undefined : safeUrl(url);
    },
    openPage: options.openPage ?? (() => undefined),
  };
  return [
    gitbookBlocksField,
    remoteCaretsField,
    blockWidgetsField,
    livePreviewPlugin(deps),
    expandableFolding(),
    EditorView.editorAttributes.of({ class: 'cm-lp-on' }),
    EditorView.domEventHandlers({
      mousedown(event, view) {
        if (!(event.ctrlKey || event.metaKey) || event.button !== 0) return false;
        const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
        const href = pos === null ? undefined : hrefAt(view, pos);
        if (!href) return false;
        const resolved = fileIdOf(href) ? deps.resolveFile(href) : href;
        if (!resolved || !openHref(resolved, deps)) return false;
        event.preventDefault();
        return true;
      },
    }),
  ];
}
