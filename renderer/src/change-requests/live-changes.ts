import type * as Y from 'yjs';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { observeContent } from '../../../shared/doc/observe';
import type { ChangeRequestApi, RevisionPageNode } from './cr-api';

/** What happened to one page in a change request (several kinds at once: renamed and edited). */
export type PageChangeKind = 'page_created' | 'page_edited' | 'page_deleted' | 'page_moved' | 'page_renamed';

export interface PageChange {
  pageId: string;
  title: string;
  kinds: PageChangeKind[];
}

/** Quiet time after the last keystroke before the list is recomputed. */
const DEBOUNCE_MS = 400;

interface BasePage {
  title: string;
  parent: string | null;
}

/**
 * The changed pages of a change request, kept current while anyone edits it.
 * The server's list only moves when it cuts a revision (after a quiet
 * period), so this compares the change request's live Y.Doc with the
 * revision it started from instead: added, deleted, moved and renamed pages
 * from the tree; edited pages by comparing their text with the base text
 * (fetched once per page, and only for pages the server reported or that
 * changed since the panel opened; the server's list is read again with each
 * of its revisions). Recomputed after each burst of updates.
 */
export class LiveChanges {
  private base?: Map<string, BasePage>;
  /** Settles once the base is loaded (or failed to load): base texts are only known after it. */
  private readonly baseLoaded: Promise<void>;
  private baseSettled!: (error?: Error) => void;
  private readonly baseText = new Map<string, Promise<string>>();
  private readonly candidates = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly off: () => void;
  private destroyed = false;

  constructor(
    private readonly crs: ChangeRequestApi,
    private readonly crId: string,
    private readonly baseRevision: string,
    doc: Y.Doc,
    private readonly content: ContentDoc,
    private readonly synced: Promise<void>,
    private readonly onResult: (result: PageChange[] | Error) => void,
  ) {
    this.baseLoaded = new Promise<void>((resolve, reject) => {
      this.baseSettled = (error) => (error ? reject(error) : resolve());
    });
    // Nobody may ask for a base text before a failure; it is reported through onResult anyway.
    this.baseLoaded.catch(() => undefined);
    this.off = observeContent(doc, (change) => {
      for (const id of change.pages) this.candidates.add(id);
      this.schedule();
    });
  }

  /** Loads the base and the server's list, then reports the first result. */
  async start(): Promise<void> {
    try {
      const [pages, server] = await Promise.all([
        this.crs.revisionPages(this.baseRevision),
        this.crs.changes(this.crId).catch(() => ({ changes: [] })),
      ]);
      await this.synced;
      this.base = flatten(pages);
      this.baseSettled();
      for (const c of server.changes) this.candidates.add(c.page.id);
      await this.recompute();
    } catch (err) {
      this.baseSettled(err as Error);
      if (!this.destroyed) this.onResult(err as Error);
    }
  }

  /**
   * Reads the server's list again, after the server cut a revision of the request: a page edited
   * before this list started (so never seen changing here) joins the pages compared with the base.
   */
  async learnFromServer(): Promise<void> {
    if (!this.base || this.destroyed) return;
    const server = await this.crs.changes(this.crId).catch(() => undefined);
    if (!server || this.destroyed) return;
    const before = this.candidates.size;
    for (const c of server.changes) this.candidates.add(c.page.id);
    if (this.candidates.size > before) await this.recompute();
  }

  /** The base text of a page (what the change request is compared with); waits for the base to load. */
  textAtBase(pageId: string): Promise<string> {
    let text = this.baseText.get(pageId);
    if (!text) {
      // A page the base lacks was added by the request: its base text is empty.
      text = this.baseLoaded.then(() =>
        this.base?.has(pageId) ? this.crs.pageMarkdownAt(this.baseRevision, pageId) : '',
      );
      text.catch(() => this.baseText.delete(pageId));
      this.baseText.set(pageId, text);
    }
    return text;
  }

  /** The base title of a page (for deleted pages, which the live document no longer has). */
  titleAtBase(pageId: string): string | undefined {
    return this.base?.get(pageId)?.title;
  }

  destroy(): void {
    this.destroyed = true;
    this.off();
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (!this.base) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.recompute().catch((err) => !this.destroyed && this.onResult(err as Error));
    }, DEBOUNCE_MS);
  }

  private async recompute(): Promise<void> {
    const base = this.base;
    if (!base || this.destroyed) return;
    const out: PageChange[] = [];
    const present = new Set(this.content.listPageIds());
    for (const id of present) {
      const page = this.content.getPage(id);
      if (!page) continue;
      const was = base.get(id);
      const title = page.title || 'Untitled';
      if (!was) {
        out.push({ pageId: id, title, kinds: ['page_created'] });
        continue;
      }
      const kinds: PageChangeKind[] = [];
      if (this.candidates.has(id) && page.markdown !== (await this.textAtBase(id))) kinds.push('page_edited');
      if ((page.title || '') !== (was.title || '')) kinds.push('page_renamed');
      if ((page.parent ?? null) !== was.parent) kinds.push('page_moved');
      if (kinds.length > 0) out.push({ pageId: id, title, kinds });
    }
    for (const [id, was] of base)
      if (!present.has(id)) out.push({ pageId: id, title: was.title || 'Untitled', kinds: ['page_deleted'] });
    if (!this.destroyed) this.onResult(out);
  }
}

function flatten(pages: RevisionPageNode[], parent: string | null = null, out = new Map<string, BasePage>()) {
  for (const p of pages) {
    out.set(p.id, { title: p.title, parent });
    flatten(p.pages ?? [], p.id, out);
  }
  return out;
}
