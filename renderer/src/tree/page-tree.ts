import type { ContentDoc } from '../../../shared/doc/content-doc';
import { empty, h, replace } from '../ui/dom';
import { createPageInteractive, deletePageInteractive, movePage, renamePageInteractive } from './tree-actions';
import type { TreeModel } from './tree-model';
import { dropTarget, moveTarget, type TreeMove } from './tree-moves';

/**
 * The page tree sidebar: nested list of pages with create / rename / delete
 * buttons, drag-and-drop to reorder and nest, a filter box, and keyboard
 * control (arrows to move focus, Enter to open, F2 rename, Delete, Alt+arrows
 * to reorder and nest).
 */
export class PageTreeView {
  readonly element: HTMLElement;
  readonly filter: HTMLInputElement;
  private readonly list: HTMLElement;
  private selected: string | undefined;
  private dragged: string | undefined;
  private frame = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly model: TreeModel,
    private readonly content: ContentDoc,
    private readonly open: (pageId: string) => void,
  ) {
    this.filter = h('input', {
      type: 'search',
      class: 'tree-filter',
      placeholder: 'Find a page (Ctrl+K)',
      'aria-label': 'Find a page',
      'data-testid': 'page-filter',
      oninput: () => this.render(),
    });
    this.filter.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      const first = this.list.querySelector<HTMLElement>('[data-page-id]');
      if (first?.dataset.pageId) this.open(first.dataset.pageId);
    });
    this.list = h('div', { class: 'tree-list' });
    const newPage = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-testid': 'new-page',
        title: 'New page (Ctrl+Alt+N)',
        onclick: () => void this.createPage(),
      },
      '+ New page',
    );
    this.element = h(
      'nav',
      { class: 'tree', 'aria-label': 'Pages', 'data-testid': 'page-tree' },
      h('div', { class: 'tree-toolbar' }, this.filter, newPage),
      this.list,
    );
    this.list.addEventListener('keydown', (event) => this.onKey(event));
    this.unsubscribe = model.onChange(() => this.scheduleRender());
    this.render();
  }

  /** Marks `pageId` as the open page. */
  select(pageId: string | undefined): void {
    this.selected = pageId;
    for (const row of Array.from(this.list.querySelectorAll<HTMLElement>('.tree-row'))) {
      const on = row.dataset.pageId === pageId;
      row.classList.toggle('selected', on);
      row.setAttribute('aria-selected', String(on));
      row.tabIndex = on ? 0 : -1;
    }
  }

  /** Creates a page after asking its title (below the open page's parent when one is open), and opens it. */
  async createPage(parent: string | null = null): Promise<void> {
    const id = await createPageInteractive(this.content, parent);
    if (id) this.open(id);
  }

  /** Renders the whole tree now (the model coalesces its changes; this is O(pages)). */
  render(): void {
    this.frame = 0;
    const query = this.filter.value.trim().toLowerCase();
    if (this.model.size === 0) {
      replace(
        this.list,
        empty('This space has no pages yet.', {
          label: 'Create the first page',
          run: () => void this.createPage(),
          testid: 'create-first-page',
        }),
      );
      return;
    }
    const root = query ? this.renderFiltered(query) : this.renderLevel(null);
    replace(this.list, root ?? h('p', { class: 'state state-empty' }, 'No page matches.'));
    this.select(this.selected);
  }

  /** Stops following the model. */
  destroy(): void {
    this.unsubscribe();
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  private scheduleRender(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  private renderLevel(parent: string | null): HTMLElement | undefined {
    const ids = this.model.childrenOf(parent);
    if (ids.length === 0) return undefined;
    const ul = h('ul', { role: parent === null ? 'tree' : 'group' });
    for (const id of ids) ul.append(h('li', { role: 'none' }, this.renderRow(id), this.renderLevel(id)));
    return ul;
  }

  private renderFiltered(query: string): HTMLElement | undefined {
    const matches = this.model.ordered().filter((id) => this.model.entry(id)?.title.toLowerCase().includes(query));
    if (matches.length === 0) return undefined;
    return h('ul', { role: 'tree' }, ...matches.map((id) => h('li', { role: 'none' }, this.renderRow(id))));
  }

  private renderRow(id: string): HTMLElement {
    const entry = this.model.entry(id)!;
    const label = `${entry.emoji ? `${entry.emoji} ` : ''}${entry.title}`;
    const row = h(
      'div',
      {
        class: `tree-row kind-${entry.kind}`,
        role: 'treeitem',
        tabindex: -1,
        draggable: 'true',
        'data-page-id': id,
        'data-testid': 'tree-row',
        onclick: () => this.open(id),
      },
      h('span', { class: 'tree-title' }, label),
      h(
        'span',
        { class: 'row-actions' },
        entry.kind !== 'group' &&
          h(
            'button',
            {
              type: 'button',
              title: 'New sub-page',
              'aria-label': `New sub-page of ${entry.title}`,
              'data-action': 'add-child',
              onclick: (e: Event) => this.act(e, () => this.createPage(id)),
            },
            '+',
          ),
        h(
          'button',
          {
            type: 'button',
            title: 'Rename (F2)',
            'aria-label': `Rename ${entry.title}`,
            'data-action': 'rename',
            onclick: (e: Event) => this.act(e, () => renamePageInteractive(this.content, id)),
          },
          '✎',
        ),
        h(
          'button',
          {
            type: 'button',
            title: 'Delete (Del)',
            'aria-label': `Delete ${entry.title}`,
            'data-action': 'delete',
            onclick: (e: Event) => this.act(e, () => deletePageInteractive(this.content, id)),
          },
          '✕',
        ),
      ),
    );
    row.addEventListener('dragstart', (event) => {
      this.dragged = id;
      event.dataTransfer?.setData('text/plain', id);
    });
    row.addEventListener('dragover', (event) => {
      if (!this.dragged || this.dragged === id) return;
      event.preventDefault();
      row.dataset.drop = dropZone(row, event);
    });
    row.addEventListener('dragleave', () => delete row.dataset.drop);
    row.addEventListener('drop', (event) => {
      event.preventDefault();
      delete row.dataset.drop;
      const moved = this.dragged;
      this.dragged = undefined;
      if (moved && moved !== id) movePage(this.content, moved, dropTarget(this.model, id, dropZone(row, event)));
    });
    return row;
  }

  private act(event: Event, run: () => Promise<unknown>): void {
    event.stopPropagation();
    void run();
  }

  private onKey(event: KeyboardEvent): void {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.tree-row');
    const id = row?.dataset.pageId;
    if (!row || !id) return;
    const moves: Record<string, TreeMove> = {
      ArrowUp: 'up',
      ArrowDown: 'down',
      ArrowRight: 'indent',
      ArrowLeft: 'outdent',
    };
    if (event.altKey && moves[event.key]) {
      event.preventDefault();
      const target = moveTarget(this.model, id, moves[event.key]!);
      if (target) movePage(this.content, id, target);
      requestAnimationFrame(() => this.list.querySelector<HTMLElement>(`[data-page-id="${id}"]`)?.focus());
      return;
    }
    const rows = Array.from(this.list.querySelectorAll<HTMLElement>('.tree-row'));
    const at = rows.indexOf(row);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      rows[at + (event.key === 'ArrowDown' ? 1 : -1)]?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.open(id);
    } else if (event.key === 'F2') {
      event.preventDefault();
      void renamePageInteractive(this.content, id);
    } else if (event.key === 'Delete') {
      event.preventDefault();
      void deletePageInteractive(this.content, id);
    }
  }
}

function dropZone(row: HTMLElement, event: DragEvent): 'before' | 'after' | 'inside' {
  const box = row.getBoundingClientRect();
  const y = (event.clientY - box.top) / Math.max(1, box.height);
  return y < 0.25 ? 'before' : y > 0.75 ? 'after' : 'inside';
}
