import type * as Y from 'yjs';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { DocSession } from '../sync/doc-session';
import { describeError } from '../api/client';
import { changeLabel } from '../diff/compute';
import { promptDialog, confirmDialog } from '../ui/dialog';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import type { ChangeRequest, ChangeRequestApi, CrListKind } from './cr-api';
import { LiveChanges, type PageChange } from './live-changes';
import { showPageDiff } from '../diff/page-diff';
import { ReviewBox } from './review-box';
import './cr-panel.css';

/** How often an open change request is re-read, so "outdated" (main moved on) and status changes show without a reload. */
const RECHECK_MS = 10_000;

/** What the panel asks the workspace to do. */
export interface CrNavigation {
  /** Switch the editor into a change request (undefined: back to the space's main content). */
  openChangeRequest(crId: string | undefined): void;
  openPage(pageId: string): void;
}

/** What reviewing needs from the workspace: who is signed in and the change request's live document. */
export interface CrReviewContext {
  selfId: string;
  doc: Y.Doc;
  content: ContentDoc;
  /** The document's sync state: the live list waits for the first sync (a fresh copy is empty, not "all deleted"). */
  session: Pick<DocSession, 'state' | 'onState'>;
}

/** Resolves once the document has caught up with the server (or is read-only, which also syncs). */
function firstSync(session: CrReviewContext['session']): Promise<void> {
  const done = (s: string) => s === 'online' || s === 'refused';
  if (done(session.state)) return Promise.resolve();
  return new Promise((resolve) => {
    const off = session.onState((s) => {
      if (!done(s)) return;
      off();
      resolve();
    });
  });
}

const LIST_TABS: { kind: CrListKind; label: string }[] = [
  { kind: 'active', label: 'Open' },
  { kind: 'merged', label: 'Merged' },
  { kind: 'archived', label: 'Closed' },
];

/** The revision of the space a change request is compared with: where it forked, or last updated from main. */
const baseOf = (cr: ChangeRequest) => cr.revisionMergedAncestor ?? cr.revisionInitial;

const STATUS_LABEL: Record<string, string> = { draft: 'Draft', open: 'Open', merged: 'Merged', archived: 'Closed' };

/**
 * The change-requests panel. On the space's main content: the open, merged
 * and closed change requests and "New change request". Inside one: its
 * status, reviews, the changed pages (live, each with its diff), update from
 * main, merge, and the way back to main.
 */
export class ChangeRequestPanel {
  readonly element = h('section', {
    class: 'change-requests',
    'aria-label': 'Change requests',
    'data-testid': 'cr-panel',
  });
  private readonly body = h('div', { class: 'cr-body' });
  private shown: ChangeRequest | undefined;
  private listKind: CrListKind = 'active';
  private live: LiveChanges | undefined;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly crs: ChangeRequestApi,
    private readonly current: string | undefined,
    private readonly nav: CrNavigation,
    private readonly review?: CrReviewContext,
  ) {
    this.element.append(h('header', { class: 'panel-header' }, h('h2', {}, 'Change requests')), this.body);
    void this.refresh();
    if (current) this.timer = setInterval(() => void this.recheck(), RECHECK_MS);
  }

  /** Stops re-reading the change request and following its document. */
  destroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.live?.destroy();
  }

  /** Asks for a subject, creates a change request and switches into it. */
  async create(): Promise<void> {
    const subject = await promptDialog('Subject of the change request', '', 'Create');
    if (!subject) return;
    try {
      const cr = await this.crs.create(subject);
      toast(`Change request #${cr.number} created`);
      this.nav.openChangeRequest(cr.id);
    } catch (err) {
      toast(`Could not create the change request: ${describeError(err)}`, 'error');
    }
  }

  /** Reloads what the panel shows. */
  async refresh(): Promise<void> {
    if (!this.body.firstChild) replace(this.body, loading('change requests'));
    try {
      if (this.current) this.showOne(await this.crs.get(this.current));
      else this.showList(await this.crs.list(this.listKind));
    } catch (err) {
      replace(
        this.body,
        errorState(`Change requests are unavailable: ${describeError(err)}`, () => void this.refresh()),
      );
    }
  }

  private listTabs(): HTMLElement {
    return h(
      'div',
      { class: 'cr-tabs', role: 'tablist', 'aria-label': 'Change request lists' },
      ...LIST_TABS.map(({ kind, label }) =>
        h(
          'button',
          {
            type: 'button',
            role: 'tab',
            class: 'cr-tab',
            'aria-selected': String(kind === this.listKind),
            'data-testid': `cr-tab-${kind}`,
            onclick: () => {
              this.listKind = kind;
              replace(this.body, this.listTabs(), loading('change requests'));
              void this.refresh();
            },
          },
          label,
        ),
      ),
    );
  }

  private showList(list: ChangeRequest[]): void {
    const create = h(
      'button',
      {
        type: 'button',
        class: 'primary cr-new',
        'data-testid': 'cr-new',
        title: 'New change request (Ctrl+Alt+R)',
        onclick: () => void this.create(),
      },
      icon('plus'),
      ' New change request',
    );
    const none: Record<CrListKind, string> = {
      active: 'No open change requests. Edits go straight to the space.',
      merged: 'No merged change requests yet.',
      archived: 'No closed change requests.',
    };
    const items = list.map((cr) =>
      h(
        'li',
        {},
        h(
          'button',
          {
            type: 'button',
            class: 'cr-item',
            'data-testid': 'cr-item',
            onclick: () => this.nav.openChangeRequest(cr.id),
          },
          h('span', { class: 'cr-item-title' }, `#${cr.number} ${cr.subject || 'Untitled'}`),
          h(
            'span',
            { class: 'cr-item-meta' },
            h('span', { class: `badge badge-${cr.status}` }, STATUS_LABEL[cr.status] ?? cr.status),
            cr.createdBy ? ` by ${cr.createdBy.displayName}` : '',
          ),
        ),
      ),
    );
    replace(
      this.body,
      create,
      this.listTabs(),
      list.length === 0
        ? empty(none[this.listKind])
        : h('ul', { class: 'cr-list', 'data-testid': `cr-list-${this.listKind}` }, ...items),
    );
  }

  /** Re-reads the open change request and re-renders only when what the panel shows changed (no flicker, no lost focus). */
  private async recheck(): Promise<void> {
    if (!this.current || !this.shown) return;
    try {
      const cr = await this.crs.get(this.current);
      if (cr.outdated !== this.shown.outdated || cr.status !== this.shown.status || cr.subject !== this.shown.subject)
        this.showOne(cr);
    } catch {
      // Offline or refused: keep showing the last answer; refresh() reports errors when asked.
    }
  }

  private showOne(cr: ChangeRequest): void {
    this.shown = cr;
    const editable = cr.status === 'draft' || cr.status === 'open';
    const status = h(
      'select',
      { 'aria-label': 'Status', 'data-testid': 'cr-status', disabled: !editable },
      ...(['draft', 'open', 'archived'] as const).map((s) =>
        h('option', { value: s, selected: s === cr.status }, STATUS_LABEL[s]!),
      ),
    );
    if (!editable) status.append(h('option', { value: cr.status, selected: true }, STATUS_LABEL[cr.status]!));
    status.addEventListener(
      'change',
      () =>
        void this.run(() => this.crs.setStatus(cr.id, status.value as 'draft' | 'open' | 'archived'), 'Status changed'),
    );
    const changes = h('div', { class: 'cr-changes', 'data-testid': 'cr-changes' }, loading('changes'));
    const reviews = this.review
      ? new ReviewBox(this.crs, cr, this.review.selfId, () => void this.refresh())
      : undefined;
    const mergeState = h('p', { class: 'cr-merge-state', 'data-testid': 'cr-merge-state' });
    replace(
      this.body,
      h(
        'p',
        { class: 'cr-title' },
        h('strong', {}, `#${cr.number} ${cr.subject || 'Untitled'}`),
        cr.outdated
          ? h(
              'span',
              {
                class: 'badge badge-outdated',
                'data-testid': 'cr-outdated',
                title: 'The space changed since this request was created or last updated: update from main',
              },
              'outdated',
            )
          : null,
      ),
      h('label', { class: 'cr-status-label' }, 'Status ', status),
      h(
        'h3',
        {},
        'Changed pages ',
        h('span', { class: 'cr-live', title: 'Updates as pages are edited' }, 'live'),
        h(
          'button',
          {
            type: 'button',
            class: 'icon-button cr-refresh',
            title: 'Reload from the server',
            'aria-label': 'Reload the change request',
            'data-testid': 'cr-changes-refresh',
            onclick: () => void this.refresh(),
          },
          icon('refresh', { size: 14 }),
        ),
      ),
      changes,
      reviews?.element,
      editable ? mergeState : null,
      h(
        'div',
        { class: 'cr-actions' },
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-testid': 'cr-merge',
            disabled: !editable,
            onclick: () => void this.merge(cr, reviews?.summary),
          },
          icon('git-merge'),
          ' Merge',
        ),
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'cr-update',
            disabled: !editable,
            onclick: () => void this.run(() => this.crs.updateFromMain(cr.id), 'Updated from main'),
          },
          'Update from main',
        ),
        h(
          'button',
          { type: 'button', 'data-testid': 'cr-back', onclick: () => this.nav.openChangeRequest(undefined) },
          'Back to main',
        ),
      ),
    );
    if (reviews)
      reviews.load().then(
        () => (mergeState.textContent = `Before merging: ${reviews.summary.toLowerCase()}.`),
        (err) => replace(reviews.element, errorState(`Reviews are unavailable: ${describeError(err)}`)),
      );
    this.followChanges(cr, changes);
  }

  /** Keeps the changed-pages list current: live from the document when there is one, else the server's list. */
  private followChanges(cr: ChangeRequest, into: HTMLElement): void {
    this.live?.destroy();
    this.live = undefined;
    const baseRevision = baseOf(cr);
    if (!this.review || cr.status === 'merged' || !baseRevision) {
      void this.serverChanges(cr, into);
      return;
    }
    const synced = firstSync(this.review.session);
    const live = new LiveChanges(
      this.crs,
      cr.id,
      baseRevision,
      this.review.doc,
      this.review.content,
      synced,
      (result) => {
        if (result instanceof Error)
          replace(
            into,
            errorState(`Changes are unavailable: ${describeError(result)}`, () => this.followChanges(cr, into)),
          );
        else this.renderChanges(cr, into, result, live);
      },
    );
    this.live = live;
    void live.start();
  }

  /** A merged change request's changes, from the server (its document is read-only and its base moved on). */
  private async serverChanges(cr: ChangeRequest, into: HTMLElement): Promise<void> {
    try {
      const { changes } = await this.crs.changes(cr.id);
      const byPage = new Map<string, PageChange>();
      for (const c of changes) {
        const entry = byPage.get(c.page.id) ?? { pageId: c.page.id, title: c.page.title, kinds: [] };
        entry.kinds.push(c.type as PageChange['kinds'][number]);
        byPage.set(c.page.id, entry);
      }
      this.renderChanges(cr, into, [...byPage.values()], undefined);
    } catch (err) {
      replace(
        into,
        errorState(`Changes are unavailable: ${describeError(err)}`, () => void this.serverChanges(cr, into)),
      );
    }
  }

  private renderChanges(cr: ChangeRequest, into: HTMLElement, list: PageChange[], live: LiveChanges | undefined): void {
    if (list.length === 0) {
      replace(into, empty('No changes yet. Edit pages to change them in this request.'));
      return;
    }
    const items = list.map((c) => {
      const deleted = c.kinds.includes('page_deleted');
      return h(
        'li',
        { class: 'cr-change', 'data-testid': 'cr-change', 'data-page': c.pageId },
        h(
          'button',
          {
            type: 'button',
            class: 'link cr-change-title',
            disabled: deleted,
            title: deleted ? 'This page is deleted in the change request' : 'Open the page',
            onclick: () => this.nav.openPage(c.pageId),
          },
          c.title,
        ),
        h(
          'span',
          { class: 'cr-change-kinds' },
          ...c.kinds.map((k) =>
            h('span', { class: `badge cr-kind cr-kind-${k}`, 'data-testid': 'cr-change-kind' }, changeLabel(k)),
          ),
        ),
        this.review
          ? h(
              'button',
              {
                type: 'button',
                class: 'cr-diff-button',
                'data-testid': 'cr-view-diff',
                'aria-label': `Diff of ${c.title}`,
                title: 'View changes',
                onclick: () =>
                  showPageDiff({
                    title: c.title,
                    badge: c.kinds.map(changeLabel).join(', '),
                    subtitle: `Main → change request #${cr.number}`,
                    before: () => (live ? live.textAtBase(c.pageId) : this.crs.pageMarkdownAt(baseOf(cr), c.pageId)),
                    // Live: the text being edited; merged: the change request's last revision.
                    after: () =>
                      deleted
                        ? ''
                        : live
                          ? (this.review!.content.getPage(c.pageId)?.markdown ?? '')
                          : this.crs.pageMarkdownInChangeRequest(cr.id, c.pageId),
                  }),
              },
              icon('git-compare'),
              ' Diff',
            )
          : null,
      );
    });
    replace(into, h('ul', { class: 'cr-change-list' }, ...items));
  }

  private async merge(cr: ChangeRequest, reviewState: string | undefined): Promise<void> {
    const state = reviewState ? ` (${reviewState.toLowerCase()})` : '';
    if (!(await confirmDialog(`Merge “${cr.subject || `#${cr.number}`}” into the space${state}?`, 'Merge'))) return;
    try {
      await this.crs.merge(cr.id);
      toast(`Change request #${cr.number} merged`);
      this.nav.openChangeRequest(undefined);
    } catch (err) {
      toast(`Could not merge: ${describeError(err)}`, 'error');
    }
  }

  private async run(call: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await call();
      toast(done);
    } catch (err) {
      toast(describeError(err), 'error');
    }
    await this.refresh();
  }
}
