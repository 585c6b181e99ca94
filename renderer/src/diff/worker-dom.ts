import { characterEntities } from 'character-entities';

/**
 * The one piece of DOM the markdown parser needs, for the rendered diff's
 * worker (rendered-worker.ts imports this first). Vite bundles the browser
 * build of decode-named-character-reference (micromark's `&name;` decoder),
 * which makes a `document.createElement('i')` when it loads and decodes by
 * setting its innerHTML; a worker has no document. This stands in for that
 * element with the same table of HTML's named character references (the one
 * that package's non-DOM build reads), so `&copy;` decodes in the worker as
 * on the main thread and the diff comes out identical. Outside a worker
 * (where a document exists) it does nothing.
 */

/** What the decoder does with its element: set `&name;` as HTML, read the text back. */
function referenceElement(): { innerHTML: string; readonly textContent: string } {
  let text = '';
  return {
    set innerHTML(html: string) {
      const name = /^&([A-Za-z0-9]+);$/.exec(html)?.[1];
      text = name !== undefined && Object.hasOwn(characterEntities, name) ? characterEntities[name]! : html;
    },
    get innerHTML() {
      return text;
    },
    get textContent() {
      return text;
    },
  };
}

const scope = globalThis as { document?: unknown };
scope.document ??= { createElement: referenceElement };
