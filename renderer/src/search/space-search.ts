import type * as Y from 'yjs';
import type { ApiClient } from '../api/client';
import { LocalSearchIndex } from './local-index';
import { searchOnline } from './online-search';
import { forgetStoredSpace, searchStoredSpaces, type OtherSpace } from './stored-spaces';
import { MAX_HITS, type SearchHit, type SearchResults } from './types';

/**
 * Searches one open space: through the server's index when it is reachable
 * (completed by the local index, which has the newest edits),
 * else (no network, socket down, request failed or too slow) through the
 * offline index over the space's local document, so search works on a plane.
 * A change request's content is only in its own document, so it is always
 * searched locally. Offline, the other recently opened spaces' stored
 * copies are searched too (listed after the open space's results).
 */

/** How long the server may take before the local copy answers instead. */
const SERVER_TIMEOUT_MS = 4000;

/** What a space search needs. */
export interface SpaceSearchTarget {
  api: ApiClient;
  spaceId: string;
  changeRequestId?: string;
  /** The open content document (read each time: a session may replace it). */
  doc(): Y.Doc;
  /** Whether the document's socket is connected and synced. */
  connected(): boolean;
  /** Other spaces whose stored copies are searched too when offline (the recently opened ones). */
  otherSpaces?(): Promise<OtherSpace[]>;
}

/** The offline index of each open document, built on first use and kept while the document lives. */
const indexes = new WeakMap<Y.Doc, LocalSearchIndex>();

function indexOf(doc: Y.Doc, spaceId: string): LocalSearchIndex {
  let index = indexes.get(doc);
  if (!index) {
    index = new LocalSearchIndex(doc, spaceId);
    indexes.set(doc, index);
    doc.once('destroy', () => index?.destroy());
  }
  return index;
}

/**
 * Builds the open space's local index while the browser is idle (called when the palette opens),
 * so the first query does not wait for it.
 */
export function warmLocalIndex(target: SpaceSearchTarget): void {
  const build = () => {
    const doc = target.doc();
    if (!doc.isDestroyed) indexOf(doc, target.spaceId).build();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(build, { timeout: 500 });
  else setTimeout(build, 0);
}

/** Searches `target` for `query`; rejects only with an AbortError (when `signal` aborts). */
export async function searchSpace(
  target: SpaceSearchTarget,
  query: string,
  signal: AbortSignal,
): Promise<SearchResults> {
  const local = () => indexOf(target.doc(), target.spaceId).query(query);
  if (target.changeRequestId) return { hits: local(), source: 'local' };
  if (navigator.onLine && target.connected()) {
    const timeout = new AbortController();
    const abort = () => timeout.abort();
    signal.addEventListener('abort', abort);
    const timer = setTimeout(abort, SERVER_TIMEOUT_MS);
    try {
      const served = await searchOnline(target.api, target.spaceId, query, timeout.signal);
      return { hits: withLocalExtras(served, local()), source: 'server' };
    } catch (err) {
      if (signal.aborted) throw err;
      // Unreachable, too slow or refused: the local copy answers (it may lag the server, never the reverse).
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', abort);
    }
  }
  return { hits: [...local(), ...(await otherSpaceHits(target, query))], source: 'offline' };
}

/**
 * The server's hits, then the local index's other hits: the server only knows the last revision
 * (text typed seconds ago is missing) and matches whole words, where the local index already
 * matches a word being typed ("albat").
 */
function withLocalExtras(served: SearchHit[], local: SearchHit[]): SearchHit[] {
  const key = (hit: SearchHit) => `${hit.pageId}#${hit.sectionId}`;
  const listed = new Set(served.map(key));
  return [...served, ...local.filter((hit) => !listed.has(key(hit)))].slice(0, MAX_HITS);
}

async function otherSpaceHits(target: SpaceSearchTarget, query: string) {
  const serverUrl = target.api.serverUrl;
  forgetStoredSpace(serverUrl, target.spaceId); // open here: its stored index would only go stale
  try {
    const others = ((await target.otherSpaces?.()) ?? []).filter((s) => s.spaceId !== target.spaceId);
    return await searchStoredSpaces(serverUrl, others, query);
  } catch {
    return []; // unreadable settings or storage: the open space's results still show
  }
}
