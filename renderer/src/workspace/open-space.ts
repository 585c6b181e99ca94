import { ContentDoc } from '../../../shared/doc/content-doc';
import { DiscussionDoc } from '../../../shared/discussion/discussion-doc';
import { alreadyDelivered } from '../comments/comments-panel';
import type { Outbox } from '../comments/outbox';
import { FileUrls } from '../preview/file-urls';
import type { Session } from '../session';
import { DocSession } from '../sync/doc-session';
import { TreeModel } from '../tree/tree-model';

/**
 * The documents of one open space (or one of its change requests): content and discussion, each
 * synced and stored locally (DocSession), the page tree model over the content, and the signed
 * file URLs. No UI: the workspace's components read it. `destroy` closes everything it opened
 * (sockets, IndexedDB handles, observers); the local copies stay in IndexedDB.
 */
export class OpenSpace {
  readonly content: DocSession;
  readonly discussion: DocSession;
  readonly contentDoc: ContentDoc;
  /** Both sessions, for the connection indicator (one array, so its subscribers never resubscribe). */
  readonly sessions: readonly DocSession[];
  /** `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>`: the REST prefix of this space's writes. */
  readonly path: string;
  readonly files: FileUrls;
  private treeModel: TreeModel | undefined;
  private readonly offs: (() => void)[] = [];
  private closed = false;

  constructor(
    readonly session: Session,
    outbox: Outbox,
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    /** A file's URL became known (the previews re-render). */
    onFileUrl: () => void,
  ) {
    const api = session.api;
    this.path = changeRequestId ? `/spaces/${spaceId}/change-requests/${changeRequestId}` : `/spaces/${spaceId}`;
    this.content = new DocSession(api, { spaceId, changeRequestId, kind: 'content' });
    this.discussion = new DocSession(api, { spaceId, changeRequestId, kind: 'discussion' });
    this.sessions = [this.content, this.discussion];
    this.contentDoc = new ContentDoc(this.content.doc);
    this.files = new FileUrls(api, this.path, onFileUrl);
    // Read through the session each time: its document is replaced if the local copy had to be dropped.
    const previous = outbox.delivered;
    outbox.delivered = (item) =>
      item.op.path === this.path && alreadyDelivered(new DiscussionDoc(this.discussion.doc), session.userId, item);
    this.offs.push(() => {
      if (outbox.delivered !== previous) outbox.delivered = previous;
    });
    // Reconnected: send what was queued while offline.
    this.offs.push(this.content.onState((state) => state === 'online' && void outbox.flush()));
  }

  /** The tree of the content, once `load` resolved. */
  get model(): TreeModel {
    if (!this.treeModel) throw new Error('The space is not loaded yet');
    return this.treeModel;
  }

  /** Whether the server accepts edits (it refuses them for read-only roles and merged change requests). */
  get editable(): boolean {
    return this.content.state !== 'refused';
  }

  /** Opens the local copy (IndexedDB) and builds the tree; false when closed meanwhile. */
  async load(): Promise<boolean> {
    await this.content.loaded;
    if (this.closed || this.content.doc.isDestroyed) return false;
    this.treeModel = new TreeModel(this.content.doc);
    return true;
  }

  /** Closes the documents (their local copies stay in IndexedDB). */
  destroy(): void {
    this.closed = true;
    for (const off of this.offs) off();
    this.treeModel?.destroy();
    this.files.destroy();
    this.content.destroy();
    this.discussion.destroy();
  }
}
