import type { ContentDoc } from '../../../shared/doc/content-doc';
import { replaceText } from '../../../shared/doc/replace-text';
import { describeError } from '../api/client';
import { changeLabel } from '../diff/compute';
import { showPageDiff } from '../diff/page-diff';
import { confirmDialog } from '../ui/dialog';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import type { HistoryApi, RevisionSummary } from './history-api';
import { fullTime, relativeTime, revisionTypeLabel } from './time';
import './history.css';

type Scope = 'page' | 'space';

/** Time for the server to cut the revision of a restore (its quiet period is 2 s by default). */
const RELOAD_AFTER_RESTORE_MS = 4000;

/**
 * The History panel: the space's revisions (or the open page's), newest
 * first — who, when, which pages — each page with "Compare with current"
 * (a diff of that version against the live text) and "Restore this version".
 * A restore is an ordinary edit of the page's Y.Text (word-level, in one
 * transaction): it syncs and merges like typing, and the editor's undo
 * takes it back.
 */
export class HistoryPanel {
  readonly element = h('section', { class: 'history-panel', 'aria-label': 'History', 'data-testid': 'history-panel' });
  private readonly body = h('div', { class: 'history-body' });
  private readonly toggle: HTMLButtonElement;
  private scope: Scope = 'page';
  private pageId: string | undefined;
  private open = false;
  private cursor: string | undefined;
  private readonly list = h('ol', { class: 'history-list', 'data-testid': 'history-list' });

  constructor(
    private readonly history: HistoryApi,
    private readonly content: ContentDoc,
    private readonly canEdit: () => boolean,
  ) {
    this.toggle = h(
      'button',
      {
        type: 'button',
        class: 'history-toggle',
        'aria-expanded': 'false',
        'data-testid': 'history-toggle',
        onclick: () => this.setOpen(!this.open),
      },
      icon('history'),
      h('span', {}, 'History'),
      icon('chevron-down', { class: 'history-chevron' }),
    );
    this.element.append(h('header', { class: 'panel-header' }, h('h2', {}, this.toggle)), this.body);
    this.body.hidden = true;
  }

  /** Opens or closes the panel (it loads when opened). */
  setOpen(open: boolean): void {
    this.open = open;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.body.hidden = !open;
    if (open) void this.reload();
  }

  /** Follows the open page (the "This page" scope lists its revisions). */
  setPage(pageId: string | undefined): void {
    if (pageId === this.pageId) return;
    this.pageId = pageId;
    if (this.open && this.scope === 'page') void this.reload();
  }

  /** Reloads the first page of revisions. */
  async reload(): Promise<void> {
    this.cursor = undefined;
    replace(this.list);
    replace(this.body, this.scopeTabs(), loading('history'));
    await this.loadMore();
  }

  private scopeTabs(): HTMLElement {
    const tab = (scope: Scope, label: string) =>
      h(
        'button',
        {
          type: 'button',
          role: 'tab',
          class: 'history-tab',
          'aria-selected': String(scope === this.scope),
          'data-testid': `history-scope-${scope}`,
          disabled: scope === 'page' && !this.pageId,
          onclick: () => {
            this.scope = scope;
            void this.reload();
          },
        },
        label,
      );
    return h(
      'div',
      { class: 'history-tabs-row' },
      h(
        'div',
        { class: 'history-tabs', role: 'tablist', 'aria-label': 'History of' },
        tab('page', 'This page'),
        tab('space', 'Whole space'),
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button history-refresh',
          title: 'Reload the history',
          'aria-label': 'Reload the history',
          'data-testid': 'history-refresh',
          onclick: () => void this.reload(),
        },
        icon('refresh', { size: 14 }),
      ),
    );
  }

  private async loadMore(): Promise<void> {
    const pageId = this.scope === 'page' ? this.pageId : undefined;
    try {
      const result = await this.history.list({ pageId, cursor: this.cursor });
      this.cursor = result.next?.page;
      for (const rev of result.items) this.list.append(this.item(rev, pageId));
      const more = this.cursor
        ? h(
            'button',
            {
              type: 'button',
              class: 'history-more',
              'data-testid': 'history-more',
              onclick: (e: Event) => {
                (e.currentTarget as HTMLElement).remove();
                void this.loadMore();
              },
            },
            'Show older versions',
          )
        : null;
      replace(
        this.body,
        this.scopeTabs(),
        this.list.childElementCount === 0
          ? empty(pageId ? 'No saved versions of this page yet.' : 'No saved versions yet.')
          : this.list,
        more,
      );
    } catch (err) {
      replace(
        this.body,
        this.scopeTabs(),
        errorState(`History is unavailable: ${describeError(err)}`, () => void this.reload()),
      );
    }
  }

  private item(rev: RevisionSummary, onlyPage: string | undefined): HTMLElement {
    const who = rev.author?.displayName ?? 'Live edits';
    const pages = onlyPage ? rev.pages.filter((p) => p.id === onlyPage) : rev.pages;
    return h(
      'li',
      { class: 'history-item', 'data-testid': 'history-item', 'data-revision': rev.id },
      h(
        'div',
        { class: 'history-meta' },
        h('span', { class: 'history-who' }, who),
        h('time', { datetime: rev.createdAt, title: fullTime(rev.createdAt) }, relativeTime(rev.createdAt)),
      ),
      // Plain edits say so with each page's badge; merges and updates say where they came from.
      rev.type === 'edits' ? null : h('div', { class: 'history-what' }, revisionTypeLabel(rev.type)),
      pages.length
        ? h('ul', { class: 'history-pages' }, ...pages.map((p) => this.pageRow(rev, p)))
        : h('p', { class: 'history-what' }, 'No page content changed (order, files or settings).'),
    );
  }

  private pageRow(rev: RevisionSummary, page: RevisionSummary['pages'][number]): HTMLElement {
    const deletedThen = page.change === 'page_deleted';
    const existsNow = this.content.hasPage(page.id);
    return h(
      'li',
      { class: 'history-page', 'data-testid': 'history-page', 'data-page': page.id },
      h('span', { class: 'history-page-title' }, page.title),
      h('span', { class: `badge cr-kind-${page.change}` }, changeLabel(page.change)),
      !deletedThen && existsNow
        ? h(
            'button',
            {
              type: 'button',
              class: 'history-compare',
              'data-testid': 'history-compare',
              'aria-label': `Compare ${page.title} at this version with the current text`,
              title: 'Compare with current',
              onclick: () => this.compare(rev, page),
            },
            icon('git-compare'),
            ' Compare',
          )
        : null,
    );
  }

  private compare(rev: RevisionSummary, page: RevisionSummary['pages'][number]): void {
    let old: string | undefined;
    const restore = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-testid': 'history-restore',
        disabled: !this.canEdit(),
        title: this.canEdit() ? 'Make the page read like this version again' : 'You cannot edit this space',
      },
      icon('rotate-ccw'),
      ' Restore this version',
    );
    const when = `${relativeTime(rev.createdAt)} (${fullTime(rev.createdAt)})`;
    const dialog = showPageDiff({
      title: page.title,
      subtitle: `Version of ${when} → current text`,
      before: async () => (old = await this.history.pageMarkdownAt(rev.id, page.id)),
      after: () => (this.content.hasPage(page.id) ? this.content.getMarkdown(page.id) : ''),
      actions: [restore],
    });
    restore.addEventListener('click', () => {
      if (old === undefined) return;
      void this.restore(page, old, when).then((done) => done && dialog.close());
    });
  }

  private async restore(page: { id: string; title: string }, text: string, when: string): Promise<boolean> {
    if (!this.content.hasPage(page.id)) {
      toast('This page no longer exists.', 'error');
      return false;
    }
    if (!(await confirmDialog(`Restore “${page.title}” to its version of ${when}?`, 'Restore'))) return false;
    const changed = replaceText(this.content.pageBody(page.id), text);
    // The restore becomes a revision once editing pauses (a few seconds): show it then.
    if (changed) setTimeout(() => this.open && void this.reload(), RELOAD_AFTER_RESTORE_MS);
    toast(changed ? `Restored “${page.title}”. Undo with Ctrl+Z in the editor.` : 'The page already reads like this.');
    return true;
  }
}
