import { ContentDoc } from '../../../shared/doc/content-doc';
import { DiscussionDoc } from '../../../shared/discussion/discussion-doc';
import type { Space } from '../api/types';
import { ChangeRequestApi } from '../change-requests/cr-api';
import { ChangeRequestPanel } from '../change-requests/cr-panel';
import { HistoryApi } from '../history/history-api';
import { HistoryPanel } from '../history/history-panel';
import { alreadyDelivered, CommentsPanel } from '../comments/comments-panel';
import type { Outbox } from '../comments/outbox';
import { People } from '../comments/people';
import { FileUrls } from '../preview/file-urls';
import { recentSpaces, rememberSpace, type Session } from '../session';
import type { ShortcutAction } from '../shortcuts';
import { ConnectionStatus } from '../sync/connection-status';
import { DocSession } from '../sync/doc-session';
import { announce, PresenceList } from '../sync/presence';
import { PageTreeView } from '../tree/page-tree';
import { TreeModel } from '../tree/tree-model';
import { h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { uploadImage } from '../upload/image-upload';
import { PageHeader } from '../page-header/page-header';
import { PageView } from './page-view';
import type { Stores } from '../stores/stores';
import { showShortcutHelp } from './shortcut-help';
import { openWorkspacePalette, searchButton } from '../search/open-palette';

/** Where the workspace navigates. */
export interface WorkspaceNavigation {
  /** The account's resource stores (the space's title and metadata come from there). */
  stores: Stores;
  toPicker(): void;
  toPage(pageId: string | undefined): void;
  /** Switches into a change request (undefined: the space's main content), keeping `pageId` open. */
  toChangeRequest(crId: string | undefined, pageId?: string): void;
  /** Opens a page of another space (a search hit found offline in its stored copy). */
  toSpace?(spaceId: string, pageId: string): void;
  signOut(): void;
  openSettings(): void;
}

/**
 * One open space (or one of its change requests): page tree, editor and
 * preview, comments, change requests, presence and the sync indicator. It
 * opens the documents from IndexedDB first, so everything below works
 * without the server; REST-backed parts (space title, change requests,
 * uploads) show their own error states when it is unreachable.
 */
export class Workspace {
  readonly element = h('div', { class: 'workspace' });
  private readonly contentSession: DocSession;
  private readonly discussionSession: DocSession;
  private readonly content: ContentDoc;
  private readonly status: ConnectionStatus;
  private readonly path: string;
  private model?: TreeModel;
  private tree?: PageTreeView;
  private pageView?: PageView;
  private pageHeader?: PageHeader;
  private comments?: CommentsPanel;
  private crPanel?: ChangeRequestPanel;
  private history?: HistoryPanel;
  private presence?: PresenceList;
  private space?: Space;
  /** The page the route asked for; it may only arrive with the first sync (a new change request's fork). */
  private wantedPage?: string;
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly session: Session,
    private readonly outbox: Outbox,
    readonly spaceId: string,
    readonly changeRequestId: string | undefined,
    private readonly nav: WorkspaceNavigation,
  ) {
    const api = session.api;
    this.path = changeRequestId ? `/spaces/${spaceId}/change-requests/${changeRequestId}` : `/spaces/${spaceId}`;
    this.contentSession = new DocSession(api, { spaceId, changeRequestId, kind: 'content' });
    this.discussionSession = new DocSession(api, { spaceId, changeRequestId, kind: 'discussion' });
    this.content = new ContentDoc(this.contentSession.doc);
    this.status = new ConnectionStatus(() => outbox.size);
    this.status.add(this.contentSession);
    this.status.add(this.discussionSession);
    this.offs.push(outbox.onChange(() => this.status.update()));
    // Read through the session each time: its document is replaced if the local copy had to be dropped.
    outbox.delivered = (item) =>
      item.op.path === this.path &&
      alreadyDelivered(new DiscussionDoc(this.discussionSession.doc), session.userId, item);
    // Reconnected: send what was queued while offline.
    this.offs.push(this.contentSession.onState((state) => state === 'online' && void outbox.flush()));
    replace(this.element, loading('space'));
  }

  /** Loads the local copy and builds the views; `pageId` is opened (else the first page). */
  async open(pageId: string | undefined): Promise<void> {
    await this.contentSession.loaded;
    if (this.contentSession.doc.isDestroyed) return;
    const awareness = this.contentSession.provider.awareness;
    announce(awareness, { name: this.session.displayName, id: this.session.userId }, pageId);
    this.model = new TreeModel(this.contentSession.doc);
    this.tree = new PageTreeView(this.model, this.content, (id) => this.nav.toPage(id), {
      storageKey: this.changeRequestId ? `${this.spaceId}/${this.changeRequestId}` : this.spaceId,
    });
    this.pageHeader = new PageHeader({
      content: this.content,
      tree: this.model,
      open: (id) => this.nav.toPage(id),
      appBase: () =>
        `${this.session.api.serverUrl}/app/s/${this.spaceId}${this.changeRequestId ? `/cr/${this.changeRequestId}` : ''}`,
      editable: () => this.contentSession.state !== 'refused',
    });
    const files = new FileUrls(this.session.api, this.path, () => this.pageView?.refreshPreview());
    this.pageView = new PageView({
      content: this.content,
      awareness,
      files,
      editable: () => this.contentSession.state !== 'refused',
      openPage: (id) => this.nav.toPage(id),
      createPage: () => void this.tree?.createPage(),
      upload: (file) => this.upload(file),
      header: this.pageHeader.element,
    });
    const people = new People(this.session.api, `${this.path}/comments`, () => this.comments?.render());
    people.learn(this.session.userId, this.session.displayName);
    this.comments = new CommentsPanel({
      discussion: this.discussionSession,
      outbox: this.outbox,
      people,
      path: this.path,
      userId: this.session.userId,
    });
    this.crPanel = new ChangeRequestPanel(
      new ChangeRequestApi(this.session.api, this.spaceId),
      this.changeRequestId,
      {
        openChangeRequest: (id) => this.nav.toChangeRequest(id, this.pageView?.current),
        openPage: (id) => this.nav.toPage(id),
      },
      {
        selfId: this.session.userId ?? '',
        doc: this.contentSession.doc,
        content: this.content,
        session: this.contentSession,
      },
    );
    // History lists the space's own revisions: shown on main content, not inside a change request.
    this.history = this.changeRequestId
      ? undefined
      : new HistoryPanel(
          new HistoryApi(this.session.api, this.spaceId),
          this.content,
          () => this.contentSession.state !== 'refused',
        );
    this.presence = new PresenceList(awareness, (id) => this.model?.entry(id)?.title);
    this.offs.push(this.model.onChange(() => this.onTreeChange()));
    replace(
      this.element,
      this.renderHeader(),
      h(
        'div',
        { class: 'workspace-body' },
        this.tree.element,
        this.pageView.element,
        h('aside', { class: 'side' }, this.crPanel.element, this.history?.element, this.comments.element),
      ),
    );
    this.setPage(pageId ?? this.model.ordered()[0]);
    void this.loadSpace();
  }

  /** Opens another page of the same document. */
  setPage(pageId: string | undefined): void {
    if (!this.pageView || !this.model) return;
    if (pageId !== undefined) this.wantedPage = pageId;
    if (pageId !== undefined && !this.content.hasPage(pageId) && this.contentSession.state !== 'online')
      pageId = undefined;
    if (pageId === undefined && this.model.size > 0) pageId = this.model.ordered()[0];
    if (pageId === this.pageView.current && pageId !== undefined) return;
    this.pageView.show(pageId);
    this.pageHeader?.show(this.pageView.current);
    this.tree?.select(pageId);
    this.comments?.setPage(pageId);
    this.history?.setPage(pageId);
    announce(
      this.contentSession.provider.awareness,
      { name: this.session.displayName, id: this.session.userId },
      pageId,
    );
  }

  /** Runs a keyboard shortcut or menu command. */
  run(action: ShortcutAction): void {
    switch (action) {
      case 'new-page':
        void this.tree?.createPage();
        break;
      case 'new-change-request':
        void this.crPanel?.create();
        break;
      case 'toggle-preview':
        this.pageView?.togglePreview();
        break;
      case 'find-page':
        this.openPalette();
        break;
      case 'comment':
        this.comments?.focus();
        break;
      case 'upload-image':
        this.pageView?.pickImage();
        break;
      case 'show-shortcuts':
        showShortcutHelp();
        break;
    }
  }

  /** Opens the Ctrl/Cmd+K search and command palette (search/). */
  private openPalette(): void {
    openWorkspacePalette({
      api: this.session.api,
      spaceId: this.spaceId,
      changeRequestId: this.changeRequestId,
      doc: () => this.contentSession.doc,
      connected: () => this.contentSession.state === 'online',
      host: this.element,
      openPage: (id) => this.nav.toPage(id),
      otherSpaces: () => recentSpaces(this.session),
      openInSpace: (spaceId, pageId) => this.nav.toSpace?.(spaceId, pageId),
      run: (action) => this.run(action),
      openSettings: () => this.nav.openSettings(),
      signOut: () => this.nav.signOut(),
      toPicker: () => this.nav.toPicker(),
    });
  }

  /** Closes the documents (their local copies stay in IndexedDB). */
  destroy(): void {
    for (const off of this.offs) off();
    this.tree?.destroy();
    this.pageView?.destroy();
    this.pageHeader?.destroy();
    this.comments?.destroy();
    this.crPanel?.destroy();
    this.presence?.destroy();
    this.model?.destroy();
    this.status.remove(this.contentSession);
    this.status.remove(this.discussionSession);
    this.contentSession.destroy();
    this.discussionSession.destroy();
  }

  private onTreeChange(): void {
    const current = this.pageView?.current;
    if (current !== this.wantedPage && this.wantedPage && this.content.hasPage(this.wantedPage))
      this.setPage(this.wantedPage);
    else if (current && !this.content.hasPage(current)) this.setPage(undefined);
    else if (!current && this.model && this.model.size > 0) this.setPage(undefined);
    else this.pageView?.refreshTitle();
  }

  private renderHeader(): HTMLElement {
    const title = h('h2', { class: 'space-title', 'data-testid': 'space-title' }, 'Space');
    const crBadge = this.changeRequestId
      ? h(
          'span',
          { class: 'badge badge-cr', 'data-testid': 'cr-badge' },
          icon('git-pull-request', { size: 12 }),
          'Change request',
        )
      : null;
    const name = this.session.displayName;
    return h(
      'header',
      { class: 'topbar' },
      h(
        'button',
        {
          type: 'button',
          class: 'ghost',
          title: 'All spaces',
          'data-testid': 'to-picker',
          onclick: () => this.nav.toPicker(),
        },
        icon('arrow-left'),
        h('span', { class: 'hide-narrow' }, 'Spaces'),
      ),
      h('span', { class: 'topbar-divider', 'aria-hidden': 'true' }),
      icon('book-open', { class: 'space-icon' }),
      title,
      crBadge,
      h('span', { class: 'spacer' }),
      searchButton(() => this.openPalette()),
      this.presence?.element,
      this.status.element,
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: 'Keyboard shortcuts (Ctrl+/)',
          'aria-label': 'Keyboard shortcuts',
          'data-testid': 'show-shortcuts',
          onclick: () => showShortcutHelp(),
        },
        icon('keyboard'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          title: 'Settings',
          'aria-label': 'Settings',
          'data-testid': 'open-settings',
          onclick: () => this.nav.openSettings(),
        },
        icon('settings'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'ghost',
          title: `Sign out ${name}`,
          'data-testid': 'sign-out',
          onclick: () => this.nav.signOut(),
        },
        // The initial is CSS-generated (data-initial), so the button's name is its text: "Sign out <name>".
        h('span', {
          class: 'avatar-initial',
          'aria-hidden': 'true',
          'data-initial': (name.trim()[0] ?? '?').toUpperCase(),
        }),
        h('span', { class: 'hide-narrow' }, 'Sign out'),
        h('span', { class: 'sr-only' }, ` ${name}`),
        icon('log-out', { size: 14 }),
      ),
    );
  }

  private async loadSpace(): Promise<void> {
    const titleEl = this.element.querySelector('[data-testid=space-title]');
    try {
      this.space = await this.session.api.request<Space>(`/spaces/${this.spaceId}`);
      if (titleEl) titleEl.textContent = this.space.title || 'Untitled space';
      await rememberSpace(this.session, this.spaceId, this.space.title || 'Untitled space');
    } catch {
      // Offline: the title from the recent-spaces list (written when it was last opened online).
      const recent = (await recentSpaces(this.session)).find((r) => r.spaceId === this.spaceId);
      if (titleEl) titleEl.textContent = recent?.title ?? 'Space (offline)';
    }
  }

  private async upload(file: File): Promise<string> {
    const space = this.space ?? (this.space = await this.session.api.request<Space>(`/spaces/${this.spaceId}`));
    return uploadImage(this.session.api, space.organization, this.content, file);
  }
}
