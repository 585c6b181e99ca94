/** One section found by a search, from the server or from the offline index. */
export interface SearchHit {
  spaceId: string;
  /** Set for a hit in another space than the open one (offline search of the recent spaces). */
  spaceTitle?: string;
  pageId: string;
  pageTitle: string;
  /** Heading anchor ('' for the page's intro). */
  sectionId: string;
  /** Heading text ('' for the intro). */
  sectionTitle: string;
  /** Plain text of the section (the server cuts long ones). */
  body: string;
  /** Extra words to mark beside the query's own (the offline index's fuzzy matches). */
  matchedTerms?: string[];
}

/** Where results came from: the server's index, the local copies because the server is unreachable, or the local document by design (a change request). */
export type SearchSource = 'server' | 'offline' | 'local';

/** The answer to one query. */
export interface SearchResults {
  hits: SearchHit[];
  source: SearchSource;
}

/** At most this many sections of one page are listed (the best ones), so one long page cannot fill the list. */
export const SECTIONS_PER_PAGE = 3;
/** At most this many sections are listed in all. */
export const MAX_HITS = 30;
