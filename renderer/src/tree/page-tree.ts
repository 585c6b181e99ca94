import type { OutlineEntry } from '../../../shared/doc/outline';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { empty, h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { CollapsedPages } from './collapse-state';
import { createPageInteractive, deletePageInteractive, movePage, renamePageInteractive } from './tree-actions';
import { treeKeyAction, type VisibleRow } from './tree-keys';
import type { TreeModel } from './tree-model';
import { dropTarget, moveTarget, type TreeMove } from './tree-moves';
import './tree.css';

/** Options of the tree view. */
export interface PageTreeOptions {
  /** Key under which collapsed pages are remembered (per space / change request); none = not remembered. */
  storageKey?: string;
}

/**
 * The page tree sidebar: nested pages that collapse and expand (remembered
 * per space), create / rename / delete buttons, drag-and-drop to reorder and
 * nest, a filter box, and the WAI-ARIA tree keyboard model (arrows move and
 * collapse/expand, Home/End, Enter opens, F2 renames, Delete, Alt+arrows
 * reorder and nest). One row at a time is in the Tab order (roving tabindex).
 */
export class PageTreeView {
  readonly element: HTMLElement;
  readonly filter: HTMLInputElement;
  private readonly list: HTMLElement;
  private readonly collapsed: CollapsedPages;
  private selected: string | undefined;
  /** The row that takes Tab focus (the last focused one, else the selected one). */
  private active: string | undefined;
  /** The rows on screen, in order (for keyboard navigation). */
  private visible: VisibleRow[] = [];
  private dragged: string | undefined;
  /** Rows whose hover actions are not built yet, with the function that builds them. */
  private readonly pendingActions = new WeakMap<HTMLElement, () => void>();
  private frame = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly model: TreeModel,
    private readonly content: ContentDoc,
    private readonly open: (pageId: string) => void,
    options: PageTreeOptions = {},
  ) {
    this.collapsed = new CollapsedPages(options.storageKey);
    this.filter = h('input', {
      type: 'search',
      class: 'tree-filter',
      placeholder: 'Filter pages',
      'aria-label': 'Filter pages by title',
      'data-testid': 'page-filter',
      oninput: () => this.render(),
    });
    this.filter.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        const first = this.visible[0];
        if (first) this.open(first.id);
      } else if (event.key === 'ArrowDown' && this.visible[0]) {
        event.preventDefault();
        this.focusRow(this.visible[0].id);
      }
    });
    this.list = h('div', { class: 'tree-list' });
    const newPage = h(
      'button',
      {
        type: 'button',
        class: 'tree-new-page',
        'data-testid': 'new-page',
        title: 'New page (Ctrl+Alt+N)',
        'aria-label': 'New page',
        onclick: () => void this.createPage(),
      },
      icon('plus'),
    );
    this.element = h(
      'nav',
      { class: 'tree', 'aria-label': 'Pages', 'data-testid': 'page-tree' },
      h(
        'div',
        { class: 'tree-toolbar' },
        h('label', { class: 'tree-filter-box' }, icon('search', { class: 'tree-filter-icon' }), this.filter),
        newPage,
      ),
      this.list,
    );
    this.list.addEventListener('keydown', (event) => this.onKey(event));
    this.list.addEventListener('focusin', (event) => {
      const id = (event.target as HTMLElement).closest<HTMLElement>('.tree-row')?.dataset.pageId;
      if (id) this.setActive(id);
    });
    this.unsubscribe = model.onChange(() => this.scheduleRender());
    this.render();
  }

  /** Marks `pageId` as the open page, expanding its ancestors so it shows. */
  select(pageId: string | undefined): void {
    this.selected = pageId;
    this.active = pageId ?? this.active;
    let revealed = false;
    for (let up = pageId === undefined ? null : this.model.parentOf(pageId); up !== null; up = this.model.parentOf(up))
      revealed = this.collapsed.set(up, false) || revealed;
    if (revealed) return this.render();
    this.markRows();
  }

  /** Creates a page after asking its title (below the open page's parent when one is open), and opens it. */
  async createPage(parent: string | null = null): Promise<void> {
    const id = await createPageInteractive(this.content, parent);
    if (!id) return;
    if (parent) this.collapsed.set(parent, false);
    this.open(id);
  }

  /** Whether `id` is collapsed (its sub-pages hidden). */
  isCollapsed(id: string): boolean {
    return this.collapsed.has(id);
  }

  /** Collapses or expands `id`. */
  setCollapsed(id: string, collapsed: boolean): void {
    if (this.collapsed.set(id, collapsed)) this.render();
  }

  /** Renders the whole tree now (the model coalesces its changes; this is O(pages)). */
  render(): void {
    this.frame = 0;
    const hadFocus = this.list.contains(document.activeElement);
    const query = this.filter.value.trim().toLowerCase();
    this.visible = [];
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
    this.collapsed.prune((id) => this.model.entry(id) !== undefined);
    const root = query ? this.renderFiltered(query) : this.renderLevel(null, 1);
    replace(this.list, root ?? h('p', { class: 'state state-empty' }, 'No page matches.'));
    this.markRows();
    if (hadFocus && this.active) this.rowOf(this.active)?.focus();
  }

  /** Stops following the model. */
  destroy(): void {
    this.unsubscribe();
    if (this.frame) cancelAnimationFrame(this.frame);
  }

  private scheduleRender(): void {
    if (!this.frame) this.frame = requestAnimationFrame(() => this.render());
  }

  private rowOf(id: string): HTMLElement | null {
    return this.list.querySelector<HTMLElement>(`.tree-row[data-page-id="${CSS.escape(id)}"]`);
  }

  /** Selection marks and the roving tabindex (the active row, else the selected one, else the first). */
  private markRows(): void {
    const rows = Array.from(this.list.querySelectorAll<HTMLElement>('.tree-row'));
    const tabbable = [this.active, this.selected].find((id) => id && rows.some((r) => r.dataset.pageId === id));
    rows.forEach((row, i) => {
      const on = row.dataset.pageId === this.selected;
      row.classList.toggle('selected', on);
      if (on) this.pendingActions.get(row)?.(); // the selected row shows its actions
      row.setAttribute('aria-selected', String(on));
      if (on) row.setAttribute('aria-current', 'page');
      else row.removeAttribute('aria-current');
      row.tabIndex = (tabbable ? row.dataset.pageId === tabbable : i === 0) ? 0 : -1;
    });
  }

  private setActive(id: string): void {
    if (this.active === id) return;
    this.active = id;
    this.markRows();
  }

  private focusRow(id: string): void {
    this.setActive(id);
    this.rowOf(id)?.focus();
  }

  private renderLevel(parent: string | null, level: number): HTMLElement | undefined {
    const ids = this.model.childrenOf(parent);
    if (ids.length === 0) return undefined;
    const ul = h('ul', { role: parent === null ? 'tree' : 'group', 'aria-label': parent === null ? 'Pages' : null });
    ids.forEach((id, i) => {
      const hasChildren = this.model.childrenOf(id).length > 0;
      const expanded = hasChildren && !this.collapsed.has(id);
      this.visible.push({ id, parent, hasChildren, expanded });
      const row = this.renderRow(id, { level, position: i + 1, size: ids.length, hasChildren, expanded });
      ul.append(h('li', { role: 'none' }, row, expanded ? this.renderLevel(id, level + 1) : undefined));
    });
    return ul;
  }

  private renderFiltered(query: string): HTMLElement | undefined {
    const matches = this.model.ordered().filter((id) => this.model.entry(id)?.title.toLowerCase().includes(query));
    if (matches.length === 0) return undefined;
    this.visible = matches.map((id) => ({ id, parent: null, hasChildren: false, expanded: false }));
    return h(
      'ul',
      { role: 'tree', 'aria-label': 'Matching pages' },
      ...matches.map((id, i) =>
        h(
          'li',
          { role: 'none' },
          this.renderRow(id, { level: 1, position: i + 1, size: matches.length, hasChildren: false, expanded: false }),
        ),
      ),
    );
  }

  private renderRow(
    id: string,
    at: { level: number; position: number; size: number; hasChildren: boolean; expanded: boolean },
  ): HTMLElement {
    const entry = this.model.entry(id)!;
    const toggle = at.hasChildren
      ? h(
          'button',
          {
            type: 'button',
            class: 'tree-chevron',
            tabindex: -1,
            title: at.expanded ? 'Collapse' : 'Expand',
            'aria-label': `${at.expanded ? 'Collapse' : 'Expand'} ${entry.title}`,
            'data-testid': 'tree-toggle',
            onclick: (e: Event) => {
              e.stopPropagation();
              this.setActive(id);
              this.setCollapsed(id, at.expanded);
            },
          },
          icon(at.expanded ? 'chevron-down' : 'chevron-right', { size: 14 }),
        )
      : h('span', { class: 'tree-chevron-space', 'aria-hidden': 'true' });
    const row = h(
      'div',
      {
        class: `tree-row kind-${entry.kind}${this.model.isHidden(id) ? ' is-hidden' : ''}`,
        role: 'treeitem',
        tabindex: -1,
        draggable: 'true',
        'aria-level': at.level,
        'aria-posinset': at.position,
        'aria-setsize': at.size,
        'aria-expanded': at.hasChildren ? String(at.expanded) : null,
        'data-page-id': id,
        'data-testid': 'tree-row',
        style: `--tree-level: ${at.level - 1}`,
        onclick: () => this.open(id),
      },
      toggle,
      entry.emoji ? h('span', { class: 'tree-emoji', 'aria-hidden': 'true' }, entry.emoji) : null,
      h('span', { class: 'tree-title' }, entry.title),
      this.model.isHidden(id)
        ? h(
            'span',
            { class: 'tree-hidden', title: 'Hidden from the published site', 'data-testid': 'tree-hidden' },
            icon('eye-off', { size: 14 }),
          )
        : null,
    );
    // The row's name is the page, not everything inside it (the row buttons have names of their own).
    const hidden = this.model.isHidden(id) ? ', hidden from site' : '';
    row.setAttribute('aria-label', `${entry.emoji ? `${entry.emoji} ` : ''}${entry.title}${hidden}`);
    // The hover actions are built when the pointer or focus first reaches the row: a 1,000-page
    // tree would otherwise build 3,000 buttons and icons nobody sees before the first paint.
    const addActions = () => {
      row.removeEventListener('pointerenter', addActions);
      row.removeEventListener('focusin', addActions);
      this.pendingActions.delete(row);
      row.append(this.rowActions(id, entry));
    };
    this.pendingActions.set(row, addActions);
    row.addEventListener('pointerenter', addActions);
    row.addEventListener('focusin', addActions);
    this.wireDrag(row, id);
    return row;
  }

  /** The row's hover actions: new sub-page, rename, delete. */
  private rowActions(id: string, entry: OutlineEntry): HTMLElement {
    return h(
      'span',
      { class: 'row-actions' },
      entry.kind !== 'link' &&
        this.rowButton(`New sub-page of ${entry.title}`, 'New sub-page', 'add-child', 'plus', () =>
          this.createPage(id),
        ),
      this.rowButton(`Rename ${entry.title}`, 'Rename (F2)', 'rename', 'pencil', () =>
        renamePageInteractive(this.content, id),
      ),
      this.rowButton(`Delete ${entry.title}`, 'Delete (Del)', 'delete', 'trash', () =>
        deletePageInteractive(this.content, id, { restored: () => this.open(id) }),
      ),
    );
  }

  private rowButton(
    label: string,
    title: string,
    action: string,
    name: 'plus' | 'pencil' | 'trash',
    run: () => Promise<unknown>,
  ): HTMLElement {
    return h(
      'button',
      {
        type: 'button',
        tabindex: -1,
        title,
        'aria-label': label,
        'data-action': action,
        onclick: (e: Event) => {
          e.stopPropagation();
          void run();
        },
      },
      icon(name, { size: 14 }),
    );
  }

  private wireDrag(row: HTMLElement, id: string): void {
    row.addEventListener('dragstart', (event) => {
      this.dragged = id;
      event.dataTransfer?.setData('text/plain', id);
    });
    row.addEventListener('dragend', () => (this.dragged = undefined));
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
      if (!moved || moved === id) return;
      const zone = dropZone(row, event);
      // Dropped inside a collapsed page: open it, so the page is seen where it landed.
      if (zone === 'inside') this.collapsed.set(id, false);
      movePage(this.content, moved, dropTarget(this.model, id, zone));
    });
  }

  private onKey(event: KeyboardEvent): void {
    const row = (event.target as HTMLElement).closest<HTMLElement>('.tree-row');
    const id = row?.dataset.pageId;
    if (!row || !id || event.target !== row) return;
    const moves: Record<string, TreeMove> = {
      ArrowUp: 'up',
      ArrowDown: 'down',
      ArrowRight: 'indent',
      ArrowLeft: 'outdent',
    };
    if (event.altKey && moves[event.key]) {
      event.preventDefault();
      const target = moveTarget(this.model, id, moves[event.key]!);
      if (target?.parent) this.collapsed.set(target.parent, false);
      if (target) movePage(this.content, id, target);
      this.active = id;
      requestAnimationFrame(() => this.rowOf(id)?.focus());
      return;
    }
    if (event.key === 'F2') {
      event.preventDefault();
      void renamePageInteractive(this.content, id);
      return;
    }
    if (event.key === 'Delete') {
      event.preventDefault();
      void deletePageInteractive(this.content, id, { restored: () => this.open(id) });
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = treeKeyAction(this.visible, id, event.key);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'focus') this.focusRow(action.id);
    else if (action.kind === 'open') this.open(action.id);
    else this.setCollapsed(action.id, action.kind === 'collapse');
  }
}

function dropZone(row: HTMLElement, event: DragEvent): 'before' | 'after' | 'inside' {
  const box = row.getBoundingClientRect();
  const y = (event.clientY - box.top) / Math.max(1, box.height);
  return y < 0.25 ? 'before' : y > 0.75 ? 'after' : 'inside';
}
