import { useEffect, useState } from 'preact/hooks';
import { sameSource, type ComputedSource } from '../../../shared/doc/computed';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { readOutlineEntry } from '../../../shared/doc/outline';

/**
 * The source of `pageId` when it is a computed page (undefined for any other page, and for a
 * computed page whose source Folio cannot expand: that one stays a document, as the server reads
 * it). It follows the page: a peer changing the settings, or the kind, re-renders the caller.
 *
 * The page's kind is read from its outline entry first: a document changes on every keystroke,
 * and reading its whole body each time just to learn it is not computed would cost a page's size.
 */
export function useComputedSource(content: ContentDoc, pageId: string | undefined): ComputedSource | undefined {
  const [source, setSource] = useState(() => read(content, pageId));
  useEffect(() => {
    const reread = () => {
      const next = read(content, pageId);
      setSource((old) => (sameSource(old, next) ? old : next));
    };
    reread();
    if (pageId === undefined) return;
    return content.observeChanges((change) => {
      if (change.pages.has(pageId)) reread();
    });
  }, [content, pageId]);
  return source;
}

function read(content: ContentDoc, pageId: string | undefined): ComputedSource | undefined {
  if (pageId === undefined || readOutlineEntry(content.ydoc, pageId)?.kind !== 'computed') return undefined;
  const page = content.getPage(pageId);
  return page?.kind === 'computed' ? page.computed : undefined;
}
