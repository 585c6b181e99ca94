import type * as Y from 'yjs';
import { Materializer, type MaterializedContent } from '../../shared/doc';
import type { Clock } from '../clock';
import { newId } from '../http/ids';
import { queryOne, type Db, type Queryable } from '../store/db';
import type { DocHub } from './hub';
import {
  changeRequestOfContentDoc,
  crContentDoc,
  spaceContentDoc,
  spaceOfContentDoc,
} from '../../shared/sync-contract';
import { pageHash, saveRevision, type StoredPage } from './revision-store';

/** Longest a stream of edits can postpone its revision, in quiet periods. */
const MAX_WAIT_PERIODS = 10;

/**
 * Options of one revision: its `type` (edits, merge, update, ...) and author. Without `userId`, the
 * author is the last of the people whose live edits the revision gathers (none: no author).
 */
export interface ReviseOptions {
  type?: string;
  userId?: string | null;
}

/**
 * Work that must land in the same transaction as a space's new revision
 * (the search index subscribes this way). `prepare` runs before the
 * transaction (it may read and compute: PGlite has one connection, held for
 * the whole transaction); the function it returns runs inside it.
 */
export interface SpaceRevisionHook {
  prepare(
    spaceId: string,
    snapshot: MaterializedContent,
    /** Who made the edits the revision holds (users' ids, in the order of their first edit). */
    editors: readonly string[],
  ): Promise<(tx: Queryable, space: { language: string | null }) => Promise<void>>;
}

/** What Snapshots needs from the server. */
export interface SnapshotDeps {
  db: Db;
  hub: DocHub;
  clock: Clock;
  /** Quiet period after the last edit before a revision is cut, in ms. */
  quietMs: number;
  /** Called when a scheduled revision fails (nobody awaits it). */
  onError(err: unknown, documentId: string): void;
}

/** A revision waiting for its document to go quiet. */
interface Pending {
  timer?: NodeJS.Timeout;
  /** When the first and the latest edit of this stream were committed (Date.now()). */
  firstAt: number;
  lastAt: number;
  /** Who made the edits of this stream, in the order of their first edit. */
  editors: string[];
}

/**
 * Turns live edits into revisions. After a space's content document has been
 * quiet for `quietMs` (or at the latest after MAX_WAIT_PERIODS of continuous
 * editing), the document is materialized (incrementally: one Materializer
 * stays bound to each loaded Y.Doc), stored as a revision that shares its
 * unchanged pages with the previous one, made the space's current revision,
 * and every hook subscribed with `onSpaceRevision` (the search index) runs in
 * the same transaction.
 *
 * Change request forks (`cr/<id>/content`) get revisions the same way: rows
 * with `change_request_id` set, made the change request's current revision.
 * They are not indexed for search (the index is the space's published content).
 * Everything is keyed by document name.
 */
export class Snapshots {
  private readonly pending = new Map<string, Pending>();
  /** Keyed by the Y.Doc instance: a reloaded document gets a fresh materializer, a dropped one is collected. */
  private readonly materializers = new WeakMap<Y.Doc, Materializer>();
  /** Signature of the last stored content per document, to skip revisions that would change nothing. */
  private readonly lastSignature = new Map<string, string>();
  private readonly running = new Map<string, Promise<string | undefined>>();
  private readonly unsubscribe: () => void;
  private readonly spaceHooks: SpaceRevisionHook[] = [];

  constructor(private readonly deps: SnapshotDeps) {
    this.unsubscribe = deps.hub.onUpdate((name, _update, origin) => {
      // The process that committed an update makes its revision (see serialize): one revision per edit burst, not one per process.
      if (origin.kind === 'remote') return;
      // Called for every committed update: a stream already waiting only moves its end (no timer per update).
      const waiting = this.pending.get(name);
      if (waiting) {
        waiting.lastAt = Date.now();
        if (origin.userId && !waiting.editors.includes(origin.userId)) waiting.editors.push(origin.userId);
        return;
      }
      const editors = origin.userId ? [origin.userId] : [];
      const spaceId = spaceOfContentDoc(name);
      if (spaceId) return this.schedule(name, () => this.revise(spaceId), spaceId, editors);
      const crId = changeRequestOfContentDoc(name);
      if (crId) this.schedule(name, () => this.reviseChangeRequest(crId), crId, editors);
    });
  }

  /**
   * Cuts a revision of `docName` once it has been quiet for `quietMs` after
   * its latest edit (`lastAt`, moved by later edits), or at the latest
   * MAX_WAIT_PERIODS quiet periods after the first one. The timer checks when
   * it fires and waits again for what is left, instead of being replaced on
   * every edit.
   */
  private schedule(docName: string, run: () => Promise<string | undefined>, id: string, editors: string[]): void {
    const now = Date.now();
    const { quietMs } = this.deps;
    const entry: Pending = { firstAt: now, lastAt: now, editors };
    const fire = () => {
      if (this.pending.get(docName) !== entry) return;
      const due = Math.min(entry.lastAt + quietMs, entry.firstAt + quietMs * MAX_WAIT_PERIODS);
      const wait = due - Date.now();
      if (wait > 0) {
        entry.timer = setTimeout(fire, wait);
        entry.timer.unref();
        return;
      }
      // The entry stays for serialize to take (with its editors): `run` reaches it synchronously.
      run().catch((err) => this.deps.onError(err, id));
    };
    entry.timer = setTimeout(fire, quietMs);
    entry.timer.unref();
    this.pending.set(docName, entry);
  }

  /** Runs `hook` with every new space revision, inside its transaction. */
  onSpaceRevision(hook: SpaceRevisionHook): void {
    this.spaceHooks.push(hook);
  }

  /**
   * Makes a revision of the space's content now (used after server-side
   * changes and by tests); resolves with the new revision id, or undefined
   * when nothing changed since the last one.
   */
  revise(spaceId: string, options: ReviseOptions = {}): Promise<string | undefined> {
    return this.serialize(spaceContentDoc(spaceId), (burst) => this.store(spaceId, options, burst));
  }

  /**
   * Makes a revision of a change request's fork now: stored with its
   * change_request_id and made the change request's current revision.
   * Resolves with the new id, or undefined when nothing changed.
   */
  reviseChangeRequest(changeRequestId: string, options: ReviseOptions = {}): Promise<string | undefined> {
    return this.serialize(crContentDoc(changeRequestId), (burst) =>
      this.storeChangeRequest(changeRequestId, options, burst),
    );
  }

  /**
   * Runs `task` after the document's queued timer is cancelled and its previous revision finished (one
   * at a time, in order); `task` gets the editors of the live edits that were waiting for a revision.
   */
  private async serialize(
    docName: string,
    task: (burst: string[]) => Promise<string | undefined>,
  ): Promise<string | undefined> {
    const queued = this.pending.get(docName);
    if (queued) {
      clearTimeout(queued.timer);
      this.pending.delete(docName);
    }
    const burst = queued?.editors ?? [];
    const previous = this.running.get(docName) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.acrossProcesses(docName, () => task(burst)));
    this.running.set(docName, next);
    try {
      return await next;
    } finally {
      if (this.running.get(docName) === next) this.running.delete(docName);
    }
  }

  /**
   * With several server processes, two of them may cut a revision of the same
   * document at once, each from its own copy. Cutting under a lock shared
   * through the database, after catching the copy up from storage, makes every
   * revision contain everything committed before it, in order: the last
   * revision is never an older view that merely finished later.
   */
  private async acrossProcesses(docName: string, task: () => Promise<string | undefined>): Promise<string | undefined> {
    const { hub, db } = this.deps;
    if (!hub.shared) return task();
    const outcome = await db.withLock(`revision:${docName}`, async () => {
      await hub.refresh(docName);
      return task();
    });
    return outcome.acquired ? outcome.value : undefined;
  }

  private async storeChangeRequest(crId: string, options: ReviseOptions, burst: string[]): Promise<string | undefined> {
    const docName = crContentDoc(crId);
    const changed = await this.changedSnapshot(docName);
    if (!changed) return undefined;
    const { db, clock } = this.deps;
    const cr = await queryOne<{ space_id: string; revision: string }>(
      db,
      'SELECT space_id, revision FROM change_requests WHERE id = $1',
      [crId],
    );
    if (!cr) return undefined;
    const id = newId();
    const now = clock.now();
    await db.transaction(async (tx) => {
      await saveRevision(tx, {
        id,
        spaceId: cr.space_id,
        changeRequestId: crId,
        parents: [cr.revision],
        ...revisionMeta(options, burst, now),
        ...revisionContent(changed.snapshot),
      });
      await tx.query('UPDATE change_requests SET revision = $2, updated_at = $3 WHERE id = $1', [crId, id, now]);
    });
    this.lastSignature.set(docName, changed.signature);
    return id;
  }

  private async store(spaceId: string, options: ReviseOptions, burst: string[]): Promise<string | undefined> {
    const docName = spaceContentDoc(spaceId);
    const changed = await this.changedSnapshot(docName);
    if (!changed) return undefined;
    const { db, clock } = this.deps;
    const space = await queryOne<{ revision: string; language: string | null }>(
      db,
      'SELECT revision, language FROM spaces WHERE id = $1',
      [spaceId],
    );
    if (!space) return undefined;
    // Hooks prepare before the transaction: PGlite has one connection, held for the whole transaction.
    const editors = options.userId && !burst.includes(options.userId) ? [...burst, options.userId] : burst;
    const inTransaction = await Promise.all(this.spaceHooks.map((h) => h.prepare(spaceId, changed.snapshot, editors)));
    const id = newId();
    const now = clock.now();
    await db.transaction(async (tx) => {
      await saveRevision(tx, {
        id,
        spaceId,
        parents: [space.revision],
        ...revisionMeta(options, burst, now),
        ...revisionContent(changed.snapshot),
      });
      await tx.query('UPDATE spaces SET revision = $2, updated_at = $3 WHERE id = $1', [spaceId, id, now]);
      for (const apply of inTransaction) await apply(tx, space);
    });
    this.lastSignature.set(docName, changed.signature);
    return id;
  }

  /** A fresh snapshot of a document, unless its content is what the last revision already stored. */
  private async changedSnapshot(
    docName: string,
  ): Promise<{ snapshot: MaterializedContent; signature: string } | undefined> {
    const snapshot = await this.deps.hub.withDoc(docName, (doc) => this.materializerFor(doc).snapshot());
    const signature = signatureOf(snapshot);
    return this.lastSignature.get(docName) === signature ? undefined : { snapshot, signature };
  }

  private materializerFor(doc: Y.Doc): Materializer {
    let m = this.materializers.get(doc);
    if (!m) {
      m = new Materializer(doc);
      this.materializers.set(doc, m);
    }
    return m;
  }

  /** Stops scheduling; revisions already running finish. */
  async close(): Promise<void> {
    this.unsubscribe();
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    await Promise.allSettled([...this.running.values()]);
  }
}

/** Who made a revision (the caller's author, else the last live editor), when, and why. */
function revisionMeta(options: ReviseOptions, burst: readonly string[], now: Date) {
  const createdBy = options.userId !== undefined ? options.userId : (burst.at(-1) ?? null);
  return { type: options.type ?? 'edits', createdBy, createdAt: now };
}

/** The stored form of a snapshot's content (files keep their blob digest for downloadURLs). */
function revisionContent(snapshot: MaterializedContent) {
  return {
    pages: snapshot.pages as unknown as StoredPage[],
    files: snapshot.files.map((f) => ({ ...f, sha256: snapshot.fileIndex.get(f.id)?.sha256 })),
    reusableContents: [...snapshot.reusableContents],
    variables: { ...snapshot.variables },
  };
}

/** A cheap identity of a snapshot's content: page hashes in tree order, files, reusable contents, variables. */
function signatureOf(s: MaterializedContent): string {
  const pages: string[] = [];
  const walk = (list: readonly { pages?: readonly unknown[] }[], depth: number) => {
    for (const p of list) {
      pages.push(`${depth}:${pageHash(p as StoredPage)}`);
      walk((p.pages ?? []) as { pages?: readonly unknown[] }[], depth + 1);
    }
  };
  walk(s.pages as unknown as { pages?: readonly unknown[] }[], 0);
  return JSON.stringify([pages, s.files, s.reusableContents, s.variables]);
}
