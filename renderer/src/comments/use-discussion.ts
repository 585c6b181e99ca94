import { useEffect, useMemo, useState } from 'preact/hooks';
import type * as Y from 'yjs';
import { DiscussionDoc } from '../../../shared/discussion/discussion-doc';
import type { DocSession } from '../sync/doc-session';
import type { Outbox, OutboxItem } from './outbox';

/**
 * The live discussion of a session: the component re-renders on every update of the document
 * (another client commenting, a reply arriving, the first load from IndexedDB), and follows the
 * session to its new document when the local copy is dropped for the server's (see DocSession).
 * Stops listening on unmount.
 */
export function useDiscussion(session: DocSession): DiscussionDoc {
  const [doc, setDoc] = useState<Y.Doc>(session.doc);
  const [, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    let current = session.doc;
    const changed = () => live && setVersion((n) => n + 1);
    current.on('update', changed);
    setDoc(current);
    const offReplaced = session.onReplaced((next) => {
      current.off('update', changed);
      current = next;
      current.on('update', changed);
      setDoc(next);
    });
    void session.loaded.then(changed);
    return () => {
      live = false;
      current.off('update', changed);
      offReplaced();
    };
  }, [session]);
  return useMemo(() => new DiscussionDoc(doc), [doc]);
}

/** The outbox's waiting items, re-read whenever the queue changes (until unmount). */
export function useOutboxItems(outbox: Outbox): OutboxItem[] {
  const [items, setItems] = useState(() => outbox.items());
  useEffect(() => {
    setItems(outbox.items());
    return outbox.onChange(() => setItems(outbox.items()));
  }, [outbox]);
  return items;
}
