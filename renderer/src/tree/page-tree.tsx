import { Component, render, type ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { OutlineEntry } from '../../../shared/doc/outline';
import { EmptyState } from '../ui/kit/async-section';
import { Icon } from '../ui/kit/icon';
import { MenuButton, type MenuItem } from '../ui/kit/menu';
import { CollapsedPages } from './collapse-state';
import { createPageInteractive, deletePageInteractive, movePage, renamePageInteractive } from './tree-actions';
import { treeKeyAction, type VisibleRow } from './tree-keys';
import type { TreeModel } from './tree-model';
import { dropTarget, moveTarget, type TreeMove } from './tree-moves';
import './tree.css';

/** What the tree needs from the workspace. */
export interface PageTreeProps {
  model: TreeModel;
  content: ContentDoc;
  /** The open page (marked, its ancestors expanded). */
  selected?: string | undefined;
  open(pageId: string): void;
  /** Creates a page (under `parent`) after asking its title, and opens it. */
  createPage(parent?: string | null): void;
  /** Key under which collapsed pages are remembered (per space / change request); none = not remembered. */
  storageKey?: string;
  /** Shown above the filter (the space's title and actions). */
  header?: ComponentChildren;
  /** Other kinds of page to add (an API reference…), in a menu beside New page; none: no menu. */
  addMenu?: MenuItem[];
}

/**
 * What the tree does for its rows (one object for the whole tree, so rows only re-render when
 * their own props change). Rows have no listeners of their own: the list handles clicks, hovers
 * and drags for all of them (a 1,000-page tree would otherwise register 8,000 listeners), and
 * reaches a row's own state (hover actions, drop marker) through `rows`.
 */
interface RowHandlers {
  open(id: string): void;
  toggle(id: string, collapse: boolean): void;
  createPage(parent: string): void;
  rename(id: string): void;
  remove(id: string): void;
  drop(moved: string, target: string, zone: DropZone): void;
  /** The mounted rows, by page. */
  rows: Map<string, TreeRow>;
}

type DropZone = 'before' | 'after' | 'inside';

/**
 * The page tree sidebar: nested pages that collapse and expand (remembered
 * per space), create / rename / delete buttons, drag-and-drop to reorder and
 * nest, a filter box, and the WAI-ARIA tree keyboard model (arrows move and
 * collapse/expand, Home/End, Enter opens, F2 renames, Delete, Alt+arrows
 * reorder and nest). One row at a time is in the Tab order (roving tabindex).
 */
export function PageTree(props: PageTreeProps) {
  const { model, content, selected } = props;
  const collapsed = useMemo(() => new CollapsedPages(props.storageKey), [props.storageKey]);
  const [, setVersion] = useState(0);
  const redraw = () => setVersion((n) => n + 1);
  const [query, setQuery] = useState('');
  /** The row that takes Tab focus (the last focused one, else the selected one). */
  const [active, setActive] = useState<string | undefined>(selected);
  const list = useRef<HTMLDivElement>(null);
  /** The page being dragged. */
  const dragged = useRef<string>();
  const latest = useRef(props);
  latest.current = props;

  // The model coalesces a transaction's changes; rendering waits for the next frame, so a burst
  // of remote edits draws once.
  useEffect(() => {
    let frame = 0;
    const off = model.onChange(() => {
      if (!frame)
        frame = requestAnimationFrame(() => {
          frame = 0;
          collapsed.prune((id) => model.entry(id) !== undefined);
          redraw();
        });
    });
    return () => {
      off();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [model, collapsed]);

  // The open page shows: its collapsed ancestors open.
  useLayoutEffect(() => {
    if (selected === undefined) return;
    setActive(selected);
    let revealed = false;
    for (let up = model.parentOf(selected); up !== null; up = model.parentOf(up))
      revealed = collapsed.set(up, false) || revealed;
    if (revealed) redraw();
  }, [selected]);

  const handlers = useMemo<RowHandlers>(
    () => ({
      open: (id) => latest.current.open(id),
      toggle: (id, collapse) => {
        setActive(id);
        if (collapsed.set(id, collapse)) redraw();
      },
      createPage: (parent) => latest.current.createPage(parent),
      rename: (id) => void renamePageInteractive(content, id),
      remove: (id) => void deletePageInteractive(content, id, { restored: () => latest.current.open(id) }),
      drop: (moved, target, zone) => {
        if (moved === target) return;
        // Dropped inside a collapsed page: open it, so the page is seen where it landed.
        if (zone === 'inside') collapsed.set(target, false);
        movePage(content, moved, dropTarget(model, target, zone));
      },
      rows: new Map(),
    }),
    [model, content, collapsed],
  );

  // Rows moved to another level are new elements: focus follows the row the keyboard was on.
  const hadFocus = list.current?.contains(document.activeElement) ?? false;
  useLayoutEffect(() => {
    if (!hadFocus || !active || list.current?.contains(document.activeElement)) return;
    rowOf(list.current, active)?.focus();
  });

  const trimmed = query.trim().toLowerCase();
  const visible: VisibleRow[] = [];
  let body: ComponentChildren;
  if (model.size === 0) {
    body = (
      <EmptyState
        message="This space has no pages yet."
        action={{ label: 'Create the first page', run: () => props.createPage(null), testid: 'create-first-page' }}
      />
    );
  } else {
    // One row in the Tab order: the active one if shown, else the selected one, else the first.
    const shown = (id: string) =>
      model.entry(id) !== undefined &&
      (trimmed ? model.entry(id)!.title.toLowerCase().includes(trimmed) : ancestorsExpanded(model, collapsed, id));
    const tabId = [active, selected].find((id) => id !== undefined && shown(id)) ?? firstShown(model, trimmed);
    const rowProps: RowPropsOf = (id, at) => ({
      id,
      entry: model.entry(id)!,
      hidden: model.isHidden(id),
      selected: id === selected,
      tabbable: id === tabId,
      handlers,
      ...at,
    });
    body = trimmed
      ? filteredList(model, trimmed, visible, rowProps)
      : level(model, collapsed, null, 1, visible, rowProps);
    if (!body) body = <p class="state state-empty">No page matches.</p>;
  }

  const focusRow = (id: string) => {
    setActive(id);
    rowOf(list.current, id)?.focus();
  };

  const onKey = (event: KeyboardEvent) => {
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
      const target = moveTarget(model, id, moves[event.key]!);
      if (target?.parent) collapsed.set(target.parent, false);
      if (target) movePage(content, id, target);
      setActive(id);
      return;
    }
    if (event.key === 'F2') {
      event.preventDefault();
      handlers.rename(id);
      return;
    }
    if (event.key === 'Delete') {
      event.preventDefault();
      handlers.remove(id);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = treeKeyAction(visible, id, event.key);
    if (!action) return;
    event.preventDefault();
    if (action.kind === 'focus') focusRow(action.id);
    else if (action.kind === 'open') props.open(action.id);
    else handlers.toggle(action.id, action.kind === 'collapse');
  };

  return (
    <nav class="tree" aria-label="Pages" data-testid="page-tree">
      {props.header}
      <div class="tree-toolbar">
        <label class="tree-filter-box">
          <Icon name="search" class="tree-filter-icon" />
          <input
            type="search"
            class="tree-filter"
            placeholder="Filter pages"
            aria-label="Filter pages by title"
            data-testid="page-filter"
            value={query}
            onInput={(event) => setQuery(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && visible[0]) props.open(visible[0].id);
              else if (event.key === 'ArrowDown' && visible[0]) {
                event.preventDefault();
                focusRow(visible[0].id);
              }
            }}
          />
        </label>
        <button
          type="button"
          class="tree-new-page"
          data-testid="new-page"
          title="New page (Ctrl+Alt+N)"
          aria-label="New page"
          onClick={() => props.createPage(null)}
        >
          <Icon name="plus" />
        </button>
        {props.addMenu && props.addMenu.length > 0 && (
          <MenuButton
            label="More kinds of page"
            testid="new-page-menu"
            class="tree-new-menu"
            icon="chevron-down"
            items={() => props.addMenu ?? []}
          />
        )}
      </div>
      <div
        ref={list}
        class="tree-list"
        onKeyDown={onKey}
        onFocusCapture={(event) => {
          const id = rowIdOf(event);
          if (id) {
            setActive(id);
            handlers.rows.get(id)?.arm();
          }
        }}
        onClick={(event) => {
          const id = rowIdOf(event);
          if (!id) return;
          const action = (event.target as HTMLElement).closest<HTMLElement>('[data-action]')?.dataset.action;
          if (action === 'toggle') handlers.toggle(id, handlers.rows.get(id)?.props.expanded ?? false);
          else if (action === 'add-child') handlers.createPage(id);
          else if (action === 'rename') handlers.rename(id);
          else if (action === 'delete') handlers.remove(id);
          else handlers.open(id);
        }}
        onPointerOver={(event) => {
          const id = rowIdOf(event);
          if (id) handlers.rows.get(id)?.arm();
        }}
        onDragStart={(event) => {
          const id = rowIdOf(event);
          if (!id) return;
          dragged.current = id;
          event.dataTransfer?.setData('text/plain', id);
        }}
        onDragEnd={() => (dragged.current = undefined)}
        onDragOver={(event) => {
          const id = rowIdOf(event);
          if (!id || !dragged.current || dragged.current === id) return;
          event.preventDefault();
          handlers.rows.get(id)?.markDrop(dropZone(event));
        }}
        onDragLeave={(event) => {
          const id = rowIdOf(event);
          if (id) handlers.rows.get(id)?.markDrop(undefined);
        }}
        onDrop={(event) => {
          const id = rowIdOf(event);
          const moved = dragged.current;
          dragged.current = undefined;
          if (!id) return;
          event.preventDefault();
          handlers.rows.get(id)?.markDrop(undefined);
          if (moved) handlers.drop(moved, id, dropZone(event));
        }}
      >
        {body}
      </div>
    </nav>
  );
}

type RowPropsOf = (
  id: string,
  at: { level: number; position: number; size: number; hasChildren: boolean; expanded: boolean },
) => RowProps;

/** One level of the tree (and, under expanded pages, the levels below), collecting the rows shown. */
function level(
  model: TreeModel,
  collapsed: CollapsedPages,
  parent: string | null,
  depth: number,
  visible: VisibleRow[],
  rowProps: RowPropsOf,
): preact.JSX.Element | undefined {
  const ids = model.childrenOf(parent);
  if (ids.length === 0) return undefined;
  return (
    <ul role={parent === null ? 'tree' : 'group'} aria-label={parent === null ? 'Pages' : undefined}>
      {ids.map((id, i) => {
        const hasChildren = model.childrenOf(id).length > 0;
        const expanded = hasChildren && !collapsed.has(id);
        visible.push({ id, parent, hasChildren, expanded });
        const props = rowProps(id, { level: depth, position: i + 1, size: ids.length, hasChildren, expanded });
        return (
          <li key={id} role="none">
            <TreeRow {...props} />
            {expanded && level(model, collapsed, id, depth + 1, visible, rowProps)}
          </li>
        );
      })}
    </ul>
  );
}

/** The pages whose title contains `query`, flat, in tree order. */
function filteredList(model: TreeModel, query: string, visible: VisibleRow[], rowProps: RowPropsOf) {
  const matches = model.ordered().filter((id) => model.entry(id)?.title.toLowerCase().includes(query));
  if (matches.length === 0) return undefined;
  for (const id of matches) visible.push({ id, parent: null, hasChildren: false, expanded: false });
  return (
    <ul role="tree" aria-label="Matching pages">
      {matches.map((id, i) => (
        <li key={id} role="none">
          <TreeRow
            {...rowProps(id, { level: 1, position: i + 1, size: matches.length, hasChildren: false, expanded: false })}
          />
        </li>
      ))}
    </ul>
  );
}

/** Whether every ancestor of `id` is expanded (so its row shows). */
function ancestorsExpanded(model: TreeModel, collapsed: CollapsedPages, id: string): boolean {
  for (let up = model.parentOf(id); up !== null; up = model.parentOf(up)) if (collapsed.has(up)) return false;
  return true;
}

/** The first row shown: the first page, or the first match of the filter. */
function firstShown(model: TreeModel, query: string): string | undefined {
  if (!query) return model.childrenOf(null)[0];
  return model.ordered().find((id) => model.entry(id)?.title.toLowerCase().includes(query));
}

function rowOf(list: HTMLElement | null, id: string): HTMLElement | null | undefined {
  return list?.querySelector<HTMLElement>(`.tree-row[data-page-id="${CSS.escape(id)}"]`);
}

interface RowProps {
  id: string;
  entry: OutlineEntry;
  hidden: boolean;
  level: number;
  position: number;
  size: number;
  hasChildren: boolean;
  expanded: boolean;
  selected: boolean;
  tabbable: boolean;
  handlers: RowHandlers;
}

/**
 * One page of the tree. It re-renders only when its own props change (a 1,000-page tree redraws
 * the rows that changed), and its hover actions are built when the pointer or focus first reaches
 * it: 3,000 buttons nobody sees would slow the first paint.
 */
class TreeRow extends Component<RowProps, { armed: boolean; drop?: DropZone | undefined }> {
  override state = { armed: false, drop: undefined as DropZone | undefined };

  override componentDidMount(): void {
    this.props.handlers.rows.set(this.props.id, this);
  }

  override componentWillUnmount(): void {
    if (this.props.handlers.rows.get(this.props.id) === this) this.props.handlers.rows.delete(this.props.id);
  }

  override shouldComponentUpdate(next: RowProps, state: { armed: boolean; drop?: DropZone | undefined }): boolean {
    if (state.armed !== this.state.armed || state.drop !== this.state.drop) return true;
    const keys = Object.keys(next) as (keyof RowProps)[];
    return keys.some((key) => next[key] !== this.props[key]);
  }

  /** The pointer or focus reached the row: its actions are built. */
  arm(): void {
    if (!this.state.armed) this.setState({ armed: true });
  }

  /** Where a dragged page would land on this row (undefined: nowhere). */
  markDrop(zone: DropZone | undefined): void {
    if (zone !== this.state.drop) this.setState({ drop: zone });
  }

  override render() {
    const { id, entry, hidden, level: depth, hasChildren, expanded, selected } = this.props;
    const computed = entry.kind === 'computed';
    const name = `${entry.emoji ? `${entry.emoji} ` : ''}${entry.title}${computed ? ', generated from an OpenAPI spec' : ''}${hidden ? ', hidden from site' : ''}`;
    return (
      <div
        class={`tree-row kind-${entry.kind}${hidden ? ' is-hidden' : ''}${selected ? ' selected' : ''}`}
        role="treeitem"
        tabIndex={this.props.tabbable ? 0 : -1}
        draggable
        aria-level={depth}
        aria-posinset={this.props.position}
        aria-setsize={this.props.size}
        aria-expanded={hasChildren ? (expanded ? 'true' : 'false') : undefined}
        aria-selected={selected ? 'true' : 'false'}
        aria-current={selected ? 'page' : undefined}
        // The row's name is the page, not everything inside it (the row buttons have names of their own).
        aria-label={name}
        data-page-id={id}
        data-kind={entry.kind}
        data-testid="tree-row"
        data-drop={this.state.drop}
        style={`--tree-level: ${depth - 1}`}
      >
        {hasChildren ? (
          <button
            type="button"
            class="tree-chevron"
            tabIndex={-1}
            title={expanded ? 'Collapse' : 'Expand'}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${entry.title}`}
            data-testid="tree-toggle"
            data-action="toggle"
          >
            <Icon name={expanded ? 'chevron-down' : 'chevron-right'} size={14} />
          </button>
        ) : (
          <span class="tree-chevron-space" aria-hidden="true" />
        )}
        {computed && (
          // Its pages are generated from an OpenAPI spec: marked, as it opens no editor.
          <span class="tree-kind-icon" title="API reference generated from an OpenAPI spec" data-testid="tree-computed">
            <Icon name="code" size={14} />
          </span>
        )}
        {entry.emoji && (
          <span class="tree-emoji" aria-hidden="true">
            {entry.emoji}
          </span>
        )}
        <span class="tree-title">{entry.title}</span>
        {hidden && (
          <span class="tree-hidden" title="Hidden from the published site" data-testid="tree-hidden">
            <Icon name="eye-off" size={14} />
          </span>
        )}
        {(this.state.armed || selected) && <RowActions entry={entry} />}
      </div>
    );
  }
}

/** Kinds of page that ContentDoc refuses children under (a link points elsewhere; a computed page's are generated). */
const childless = (kind: string | undefined) => kind === 'link' || kind === 'computed';

/** The row's hover actions: new sub-page, rename, delete (the list runs them: `data-action`). */
function RowActions({ entry }: { entry: OutlineEntry }) {
  const button = (label: string, title: string, action: string, icon: 'plus' | 'pencil' | 'trash') => (
    <button type="button" tabIndex={-1} title={title} aria-label={label} data-action={action}>
      <Icon name={icon} size={14} />
    </button>
  );
  return (
    <span class="row-actions">
      {!childless(entry.kind) && button(`New sub-page of ${entry.title}`, 'New sub-page', 'add-child', 'plus')}
      {button(`Rename ${entry.title}`, 'Rename (F2)', 'rename', 'pencil')}
      {button(`Delete ${entry.title}`, 'Delete (Del)', 'delete', 'trash')}
    </span>
  );
}

/** The page of the row an event happened in. */
function rowIdOf(event: Event): string | undefined {
  return (event.target as HTMLElement).closest<HTMLElement>('.tree-row')?.dataset.pageId;
}

/**
 * Where on the row under the pointer a page would drop: its top quarter, bottom quarter, or middle;
 * a row that takes no children splits in halves instead (no drop there would be refused).
 */
function dropZone(event: DragEvent): DropZone {
  const row = (event.target as HTMLElement).closest<HTMLElement>('.tree-row');
  if (!row) return 'inside';
  const box = row.getBoundingClientRect();
  const y = (event.clientY - box.top) / Math.max(1, box.height);
  if (childless(row.dataset.kind)) return y < 0.5 ? 'before' : 'after';
  return y < 0.25 ? 'before' : y > 0.75 ? 'after' : 'inside';
}

/** Creates a page after asking its title (under `parent`) and opens it. */
export async function createAndOpenPage(
  content: ContentDoc,
  open: (pageId: string) => void,
  parent: string | null = null,
): Promise<void> {
  const id = await createPageInteractive(content, parent);
  if (id) open(id);
}

/**
 * The tree drawn into an element of its own, for hosts that are not Preact (the desktop bench
 * measures exactly what the app draws): `destroy` unmounts it.
 */
export class PageTreeView {
  readonly element: HTMLElement = document.createElement('div');

  constructor(
    model: TreeModel,
    content: ContentDoc,
    open: (pageId: string) => void,
    options: { storageKey?: string } = {},
  ) {
    render(
      <PageTree
        model={model}
        content={content}
        open={open}
        createPage={(parent) => void createAndOpenPage(content, open, parent ?? null)}
        {...(options.storageKey ? { storageKey: options.storageKey } : {})}
      />,
      this.element,
    );
  }

  destroy(): void {
    render(null, this.element);
  }
}
