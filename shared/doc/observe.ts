import * as Y from 'yjs';
import { entryKeyOf, filesRoot, pagesRoot, reusableRoot, variablesRoot } from './keys';

/** What one transaction changed in a content document. */
export interface ContentChange {
  /** Pages whose fields or body changed, or that were added or deleted. */
  pages: Set<string>;
  /** Files added, changed or deleted. */
  files: Set<string>;
  /** Reusable contents added, changed or deleted. */
  reusableContents: Set<string>;
  /** Whether any variable changed. */
  variables: boolean;
}

/** An empty change record. */
export function emptyChange(): ContentChange {
  return { pages: new Set(), files: new Set(), reusableContents: new Set(), variables: false };
}

/** Adds to `into` the root entries (page ids, file ids, ...) that `events` touched below `root`. */
export function collectKeys(
  root: Y.Map<unknown>,
  events: Y.YEvent<Y.AbstractType<unknown>>[],
  into: Set<string>,
): void {
  for (const event of events) {
    if (event.target === root) {
      if (event instanceof Y.YMapEvent) for (const key of event.keysChanged) if (key !== null) into.add(key);
    } else {
      const key = entryKeyOf(root, event.target);
      if (key !== undefined) into.add(key);
    }
  }
}

/**
 * Reports each transaction's changes to `cb` once, after all observers ran.
 * Deep observers fire per root; they accumulate into one record that the
 * `afterTransaction` event (emitted after observers) flushes.
 * Returns the unsubscribe function.
 */
export function observeContent(
  doc: Y.Doc,
  cb: (change: ContentChange, transaction: Y.Transaction) => void,
): () => void {
  let pending = emptyChange();
  let dirty = false;
  const roots = { pages: pagesRoot(doc), files: filesRoot(doc), reusableContents: reusableRoot(doc) };
  const handlers = (Object.keys(roots) as (keyof typeof roots)[]).map((name) => {
    const root = roots[name];
    const handler = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => {
      collectKeys(root, events, pending[name]);
      dirty = true;
    };
    root.observeDeep(handler);
    return () => root.unobserveDeep(handler);
  });
  const variables = variablesRoot(doc);
  const onVariables = () => {
    pending.variables = true;
    dirty = true;
  };
  variables.observe(onVariables);
  const flush = (tr: Y.Transaction) => {
    if (!dirty) return;
    const change = pending;
    pending = emptyChange();
    dirty = false;
    cb(change, tr);
  };
  doc.on('afterTransaction', flush);
  return () => {
    for (const off of handlers) off();
    variables.unobserve(onVariables);
    doc.off('afterTransaction', flush);
  };
}
