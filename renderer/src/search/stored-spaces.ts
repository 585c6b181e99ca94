import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { storageNameOf } from '../sync/doc-session';
import { LocalSearchIndex } from './local-index';
import type { SearchHit } from './types';

/**
 * Offline search of the other spaces opened recently on this device: their
 * content documents are read from IndexedDB (the copies y-indexeddb keeps,
 * see sync/doc-session.ts), indexed, and closed again; the index stays
 * for the rest of the session, since a space nobody has open does not change
 * here (it is dropped when that space is opened, see `forgetStoredSpace`).
 */

/** A space to search besides the open one. */
export interface OtherSpace {
  spaceId: string;
  title: string;
}

const indexes = new Map<string, Promise<LocalSearchIndex | undefined>>();

/** Drops the cached index of a space (it is open now: its live document is searched instead). */
export function forgetStoredSpace(serverUrl: string, spaceId: string): void {
  indexes.delete(storageNameOf(serverUrl, { spaceId, kind: 'content' }));
}

/** Searches the stored copies of `spaces` (those never stored on this device are skipped). */
export async function searchStoredSpaces(
  serverUrl: string,
  spaces: readonly OtherSpace[],
  query: string,
): Promise<SearchHit[]> {
  const results = await Promise.all(
    spaces.map(async (space) => {
      const index = await storedIndex(serverUrl, space.spaceId);
      return (index?.query(query) ?? []).map((hit) => ({ ...hit, spaceTitle: space.title }));
    }),
  );
  return results.flat();
}

function storedIndex(serverUrl: string, spaceId: string): Promise<LocalSearchIndex | undefined> {
  const name = storageNameOf(serverUrl, { spaceId, kind: 'content' });
  let index = indexes.get(name);
  if (!index) {
    index = load(name, spaceId).catch(() => undefined);
    indexes.set(name, index);
  }
  return index;
}

/** Reads one stored document, indexes it and closes it (read-only: nothing is written back). */
async function load(name: string, spaceId: string): Promise<LocalSearchIndex | undefined> {
  // Opening a database that does not exist would create an empty one: look first where the browser can tell.
  if (typeof indexedDB.databases === 'function') {
    const known = await indexedDB.databases();
    if (!known.some((db) => db.name === name)) return undefined;
  }
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(name, doc);
  try {
    await persistence.whenSynced;
    const index = new LocalSearchIndex(doc, spaceId);
    index.build();
    index.destroy(); // stop listening: the document goes away, the index stays
    return index;
  } finally {
    await persistence.destroy();
    doc.destroy();
  }
}
