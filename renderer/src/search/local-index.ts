import MiniSearch from 'minisearch';
import type * as Y from 'yjs';
import { ContentDoc } from '../../../shared/doc/content-doc';
import { observeContent } from '../../../shared/doc/observe';
import { splitSections } from './sections';
import { fold } from './snippet';
import { MAX_HITS, SECTIONS_PER_PAGE, type SearchHit } from './types';

/**
 * The offline full-text index of one space's content document: MiniSearch
 * over the sections of every document page (title, heading, body), so search
 * works with no server at all. It is built the first time the palette asks
 * and kept up to date cheaply: document changes only note which pages they
 * touched (observeContent), and the next query re-splits just those pages
 * whose title or text really changed.
 */

interface SectionDoc {
  id: string;
  pageId: string;
  pageTitle: string;
  sectionId: string;
  sectionTitle: string;
  body: string;
}

/** What was indexed of a page: to notice a change, and to remove its old sections. */
interface IndexedPage {
  title: string;
  markdown: string;
  ids: string[];
}

export class LocalSearchIndex {
  private readonly search = new MiniSearch<SectionDoc>({
    fields: ['pageTitle', 'sectionTitle', 'body'],
    storeFields: ['pageId', 'pageTitle', 'sectionId', 'sectionTitle', 'body'],
    // Accents fold away, so "cafe" finds "Café" (as the highlighter marks it).
    processTerm: (term) => fold(term),
    searchOptions: {
      boost: { pageTitle: 3, sectionTitle: 2 },
      prefix: true,
      fuzzy: (term) => (term.length > 4 ? 0.2 : false),
      combineWith: 'AND',
    },
  });
  private readonly pages = new Map<string, IndexedPage>();
  /** Nothing indexed yet: the first query reads every page. */
  private unread = true;
  /** Pages changed since the last query. */
  private readonly touched = new Set<string>();
  private readonly unobserve: () => void;

  /** @param doc the space's content document (not owned: the index only listens to it). */
  constructor(
    private readonly doc: Y.Doc,
    readonly spaceId: string,
  ) {
    this.unobserve = observeContent(doc, (change) => {
      for (const id of change.pages) this.touched.add(id);
    });
  }

  /** Sections matching `query`, best first, a few per page. */
  query(query: string): SearchHit[] {
    this.refresh();
    const perPage = new Map<string, number>();
    const hits: SearchHit[] = [];
    for (const result of this.search.search(query)) {
      const count = perPage.get(result.pageId as string) ?? 0;
      if (count >= SECTIONS_PER_PAGE) continue;
      perPage.set(result.pageId as string, count + 1);
      hits.push({
        spaceId: this.spaceId,
        pageId: result.pageId as string,
        pageTitle: result.pageTitle as string,
        sectionId: result.sectionId as string,
        sectionTitle: result.sectionTitle as string,
        body: result.body as string,
        matchedTerms: result.terms,
      });
      if (hits.length >= MAX_HITS) break;
    }
    return hits;
  }

  /** How many sections are indexed (after bringing the index up to date). */
  get size(): number {
    this.refresh();
    return this.search.documentCount;
  }

  /** Brings the index up to date now (before its document goes away). */
  build(): void {
    this.refresh();
  }

  /** Stops listening to the document. */
  destroy(): void {
    this.unobserve();
  }

  /** Re-indexes the pages touched since the last refresh (every page the first time). */
  private refresh(): void {
    if (!this.unread && this.touched.size === 0) return;
    const content = new ContentDoc(this.doc);
    const ids = this.unread ? new Set([...content.listPageIds(), ...this.pages.keys()]) : new Set(this.touched);
    this.unread = false;
    this.touched.clear();
    for (const id of ids) this.reindex(content, id);
  }

  /** Brings one page's sections up to date (removes them for a deleted page or one that is not a document). */
  private reindex(content: ContentDoc, id: string): void {
    const page = content.hasPage(id) ? content.getPage(id) : undefined;
    const known = this.pages.get(id);
    if (!page || page.kind !== 'document') {
      if (known) this.search.discardAll(known.ids);
      this.pages.delete(id);
      return;
    }
    if (known && known.title === page.title && known.markdown === page.markdown) return;
    if (known) this.search.discardAll(known.ids);
    const docs = splitSections(page.markdown).map((s, ord): SectionDoc => ({
      id: `${id}#${ord}`,
      pageId: id,
      pageTitle: page.title,
      sectionId: s.id,
      sectionTitle: s.title,
      body: s.body,
    }));
    // A page with no text is still found by its title.
    if (docs.length === 0)
      docs.push({ id: `${id}#0`, pageId: id, pageTitle: page.title, sectionId: '', sectionTitle: '', body: '' });
    this.search.addAll(docs);
    this.pages.set(id, { title: page.title, markdown: page.markdown, ids: docs.map((d) => d.id) });
  }
}
