import { EditorView, WidgetType } from '@codemirror/view';
import { icon, type IconName } from '../../ui/icons';
import { inlinePieces, parseTable, type InlinePiece } from './markdown-table';
import { fileIdOf, pageIdOf, safeUrl, sizedImageSource, type ImageRef } from './image-source';

/**
 * The DOM that live preview draws in place of (or next to) markdown syntax.
 * Every widget builds its DOM from text nodes (never innerHTML of page
 * content): a page is written by any editor of the space.
 */

/** What widgets need from the app. */
export interface WidgetDeps {
  /** The URL to load for an image or file source (`/files/<id>` -> signed URL); undefined while unknown. */
  resolveFile(src: string): string | undefined;
  /** Opens another page of the space by id. */
  openPage(pageId: string): void;
}

/** A widget equal to another of its class with the same key (so unchanged widgets keep their DOM). */
abstract class KeyedWidget extends WidgetType {
  constructor(readonly key: string) {
    super();
  }
  override eq(other: WidgetType): boolean {
    return other.constructor === this.constructor && (other as KeyedWidget).key === this.key;
  }
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls: string,
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  node.append(...children);
  return node;
}

/** Inline markdown of a title or cell as DOM (text nodes in <strong>/<em>/<code>/...). */
export function inlineDom(text: string): Node[] {
  const tagOf: Record<NonNullable<InlinePiece['style']>, keyof HTMLElementTagNameMap> = {
    strong: 'strong',
    em: 'em',
    code: 'code',
    strike: 's',
    link: 'span',
  };
  return inlinePieces(text).map((p) =>
    p.style ? el(tagOf[p.style], p.style === 'link' ? 'cm-lp-link' : '', p.text) : document.createTextNode(p.text),
  );
}

/** Opens a link target: another page in the app, or a web page in a new window. */
export function openHref(href: string, deps: WidgetDeps): boolean {
  const page = pageIdOf(href);
  if (page) {
    deps.openPage(page);
    return true;
  }
  const url = safeUrl(href);
  if (url && /^https?:/i.test(url)) {
    window.open(url, '_blank', 'noopener');
    return true;
  }
  return false;
}

/** `•` for a bullet list mark. */
export class BulletWidget extends KeyedWidget {
  constructor() {
    super('•');
  }
  toDOM(): HTMLElement {
    return el('span', 'cm-lp-bullet', '•');
  }
}

/**
 * After an edit redrew a widget, gives keyboard focus back to its DOM: the element matching
 * `selector` whose widget now starts at `pos` (a keyboard user keeps their place). Tried at once
 * (CodeMirror redraws in the dispatch) and once more on the next frame.
 */
function refocusWidget(view: EditorView, selector: string, pos: number, inner?: string): void {
  const find = () => {
    for (const el of Array.from(view.contentDOM.querySelectorAll<HTMLElement>(selector))) {
      let at: number;
      try {
        at = view.posAtDOM(el);
      } catch {
        continue;
      }
      if (at === pos) return inner ? el.querySelector<HTMLElement>(inner) : el;
    }
    return null;
  };
  const target = find();
  if (target) target.focus();
  else requestAnimationFrame(() => find()?.focus());
}

/** Escape in a widget hands the keyboard back to the text. */
function escapeToText(view: EditorView, event: KeyboardEvent): boolean {
  if (event.key !== 'Escape') return false;
  event.preventDefault();
  view.focus();
  return true;
}

/**
 * The checkbox of a task list item; clicking it, or Space/Enter while it has focus, edits
 * `[ ]` <-> `[x]` in the text. Its accessible name is the task's text. Reached from the
 * keyboard like the other widgets: Escape then Tab leaves the text for them (CodeMirror's Tab
 * indents), Tab and Shift+Tab go on, Escape goes back to the text.
 */
export class CheckboxWidget extends KeyedWidget {
  constructor(
    readonly checked: boolean,
    readonly label = '',
  ) {
    super(`${checked}|${label}`);
  }
  toDOM(view: EditorView): HTMLElement {
    const box = el('input', 'cm-lp-task');
    box.type = 'checkbox';
    box.dataset.testid = 'lp-task-checkbox';
    this.sync(box, view);
    box.addEventListener('mousedown', (e) => e.preventDefault()); // keep the cursor where it is
    box.addEventListener('click', (e) => {
      e.preventDefault();
      toggleTask(view, box);
    });
    box.addEventListener('keydown', (e) => {
      if (escapeToText(view, e)) return;
      if (e.key === ' ' || e.key === 'Enter') {
        e.preventDefault();
        toggleTask(view, box);
      }
    });
    return box;
  }
  /** The same input stays (and keeps focus) when only the state or the text changed. */
  override updateDOM(dom: HTMLElement, view: EditorView): boolean {
    if (!(dom instanceof HTMLInputElement) || !dom.classList.contains('cm-lp-task')) return false;
    this.sync(dom, view);
    return true;
  }
  private sync(box: HTMLInputElement, view: EditorView): void {
    box.checked = this.checked;
    box.disabled = !canEdit(view);
    box.setAttribute('aria-label', this.label || 'Task');
    box.title = this.checked ? 'Done (Space: not done)' : 'Not done (Space: done)';
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

/** Whether widgets may edit the text (not in a read-only editor: merged change requests, readers). */
function canEdit(view: EditorView): boolean {
  return view.state.facet(EditorView.editable) && !view.state.readOnly;
}

function toggleTask(view: EditorView, box: HTMLElement): void {
  if (!canEdit(view)) return;
  const pos = view.posAtDOM(box);
  const marker = view.state.sliceDoc(pos, pos + 3);
  if (!/^\[[ xX]\]$/.test(marker)) return;
  const focused = view.root.activeElement === box;
  view.dispatch({
    changes: { from: pos + 1, to: pos + 2, insert: marker[1] === ' ' ? 'x' : ' ' },
    userEvent: 'input.toggle',
  });
  if (focused && view.root.activeElement !== box) refocusWidget(view, '.cm-lp-task', pos);
}

/** Where an image widget sits relative to its source. */
export type ImagePlacement = 'replace' | 'after';

/** Narrowest an image may be resized to (px), and the widest. */
const MIN_WIDTH = 40;
const MAX_WIDTH = 2000;

/**
 * An image drawn from its source, with a handle to resize it: the new width
 * is written back to the text as `<img … width="N">` (see image-source.ts).
 * The handle is a slider for the keyboard too: focused (Escape then Tab from
 * the text, like the other widgets), Left/Down narrow the image by a tenth,
 * Right/Up widen it (Shift: a quarter), Home/End go to the narrowest/widest.
 */
export class ImageWidget extends KeyedWidget {
  constructor(
    readonly image: ImageRef,
    readonly url: string | undefined,
    readonly source: string,
    readonly placement: ImagePlacement,
  ) {
    super(`${placement}|${url ?? ''}|${source}`);
  }
  toDOM(view: EditorView): HTMLElement {
    const box = el('span', 'cm-lp-image');
    box.dataset.testid = 'lp-image';
    if (!this.url) {
      box.append(el('span', 'cm-lp-image-missing', icon('image'), ` ${this.image.alt || 'Image'} (loading…)`));
      return box;
    }
    const img = el('img', '');
    img.src = this.url;
    img.alt = this.image.alt;
    img.draggable = false;
    if (this.image.width) img.style.width = `${this.image.width}px`;
    const handle = el('span', 'cm-lp-image-handle');
    handle.tabIndex = 0;
    handle.setAttribute('role', 'slider');
    handle.setAttribute('aria-label', `Width of image ${this.image.alt || this.image.src}`);
    handle.setAttribute('aria-orientation', 'horizontal');
    handle.setAttribute('aria-valuemin', String(MIN_WIDTH));
    handle.setAttribute('aria-valuemax', String(MAX_WIDTH));
    handle.title = 'Resize: drag, or arrow keys';
    handle.dataset.testid = 'lp-image-resize';
    const showWidth = () => {
      const width = Math.round(this.image.width ?? img.getBoundingClientRect().width);
      if (!width) return;
      handle.setAttribute('aria-valuenow', String(width));
      handle.setAttribute('aria-valuetext', `${width} pixels wide`);
    };
    showWidth();
    img.addEventListener('load', showWidth);
    handle.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      handle.setPointerCapture(e.pointerId);
      const startX = e.clientX;
      const startWidth = img.getBoundingClientRect().width;
      const move = (m: PointerEvent) => (img.style.width = `${Math.max(MIN_WIDTH, startWidth + m.clientX - startX)}px`);
      const up = () => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        this.writeWidth(view, box, img.getBoundingClientRect().width);
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
    handle.addEventListener('keydown', (e) => {
      if (escapeToText(view, e)) return;
      // The width written, else the width drawn (0 until the image has loaded: then only Home/End resize).
      const width = this.image.width ?? img.getBoundingClientRect().width;
      const step = width > 0 ? Math.max(1, Math.round(width * (e.shiftKey ? 0.25 : 0.1))) : 0;
      const next: Record<string, number> = {
        ArrowLeft: width - step,
        ArrowDown: width - step,
        ArrowRight: width + step,
        ArrowUp: width + step,
        Home: MIN_WIDTH,
        End: MAX_WIDTH,
      };
      if (!(e.key in next)) return;
      e.preventDefault();
      if (step > 0 || e.key === 'Home' || e.key === 'End') this.writeWidth(view, box, next[e.key]!, true);
    });
    box.append(img, handle);
    return box;
  }
  /**
   * Replaces the image's source text with the sized `<img>` tag, if the text is still there; a
   * resize from the keyboard gives the focus to the redrawn image's handle.
   */
  private writeWidth(view: EditorView, box: HTMLElement, width: number, keepFocus = false): void {
    if (!canEdit(view)) return;
    const at = view.posAtDOM(box);
    const from = this.placement === 'replace' ? at : at - this.source.length;
    if (from < 0 || view.state.sliceDoc(from, from + this.source.length) !== this.source) return;
    const clamped = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width));
    const insert = sizedImageSource(this.image, clamped);
    if (insert === this.source) return;
    view.dispatch({ changes: { from, to: from + this.source.length, insert }, userEvent: 'input.resize' });
    if (keepFocus) {
      const pos = this.placement === 'replace' ? from : from + insert.length;
      refocusWidget(view, '.cm-lp-image', pos, '.cm-lp-image-handle');
    }
  }
  override ignoreEvent(event: Event): boolean {
    return event.type !== 'mousedown' || (event.target as HTMLElement).classList.contains('cm-lp-image-handle');
  }
}

/** The language label on the first line of a fenced code block. */
export class CodeLabelWidget extends KeyedWidget {
  toDOM(): HTMLElement {
    return el('span', 'cm-lp-code-label', this.key || 'code');
  }
}

const HINTS: Record<string, { label: string; icon: IconName }> = {
  info: { label: 'Info', icon: 'info' },
  success: { label: 'Success', icon: 'circle-check' },
  warning: { label: 'Warning', icon: 'triangle-alert' },
  danger: { label: 'Danger', icon: 'octagon-alert' },
};

/** The normalized style of a hint (GitBook's four; anything else reads as info). */
export function hintStyle(style: string | undefined): string {
  return style && style in HINTS ? style : 'info';
}

/** The header row of a hint (icon and label) drawn over the `{% hint %}` line. */
export class HintHeaderWidget extends KeyedWidget {
  toDOM(): HTMLElement {
    const hint = HINTS[hintStyle(this.key)]!;
    return el('span', 'cm-lp-hint-header', icon(hint.icon), ` ${hint.label}`);
  }
}

/** The tab strip drawn over `{% tabs %}`: one button per `{% tab %}`, moving the cursor into it. */
export class TabStripWidget extends KeyedWidget {
  constructor(
    readonly titles: string[],
    readonly active: number,
  ) {
    super(`${active}|${titles.join('\u0000')}`);
  }
  toDOM(view: EditorView): HTMLElement {
    const strip = el('span', 'cm-lp-tabs');
    strip.setAttribute('role', 'tablist');
    strip.dataset.testid = 'lp-tabs';
    this.titles.forEach((title, i) => {
      const tab = el('button', i === this.active ? 'cm-lp-tab cm-lp-tab-active' : 'cm-lp-tab', ...inlineDom(title));
      tab.type = 'button';
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(i === this.active));
      tab.dataset.testid = 'lp-tab';
      tab.addEventListener('mousedown', (e) => e.preventDefault());
      tab.addEventListener('click', () => {
        // The i-th `{% tab %}` line after the strip: put the cursor at the start of its body.
        let line = view.state.doc.lineAt(view.posAtDOM(strip));
        let seen = -1;
        while (line.number < view.state.doc.lines) {
          line = view.state.doc.line(line.number + 1);
          if (/^\s*\{%\s*tab\s/.test(line.text) && ++seen === i) break;
        }
        const body = Math.min(line.to + 1, view.state.doc.length);
        view.dispatch({ selection: { anchor: body }, scrollIntoView: true });
        view.focus();
      });
      strip.append(tab);
    });
    if (this.titles.length === 0) strip.append(el('span', 'cm-lp-tab', 'Tabs'));
    return strip;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

/**
 * The summary row of an expandable (`{% expandable %}` or `<details>`), with a button that folds
 * the body lines away (and back): CodeMirror folding over the block (folding.ts), so the text
 * never changes. The button is reached from the keyboard like
 * the other widgets; Enter or Space toggles it.
 */
export class ExpandableHeaderWidget extends KeyedWidget {
  constructor(
    readonly title: string,
    readonly folded = false,
    /** Folds or unfolds the block whose header is at `pos`; absent when there is nothing to fold. */
    readonly toggle?: (view: EditorView, pos: number) => void,
  ) {
    super(`${folded}|${toggle ? 'foldable' : ''}|${title}`);
  }
  toDOM(view: EditorView): HTMLElement {
    const header = el('span', 'cm-lp-expandable-header');
    header.dataset.testid = 'lp-expandable';
    const toggle = el('button', 'cm-lp-fold', icon('chevron-down'));
    toggle.type = 'button';
    toggle.dataset.testid = 'lp-expandable-toggle';
    toggle.addEventListener('mousedown', (e) => e.preventDefault()); // a click folds; it does not move the cursor
    toggle.addEventListener('click', (e) => {
      e.preventDefault();
      const focused = view.root.activeElement === toggle;
      const pos = view.posAtDOM(header);
      this.toggle?.(view, pos);
      if (focused && view.root.activeElement !== toggle)
        refocusWidget(view, '.cm-lp-expandable-header', pos, '.cm-lp-fold');
    });
    toggle.addEventListener('keydown', (e) => escapeToText(view, e));
    header.append(toggle, el('span', 'cm-lp-expandable-title', ...inlineDom(this.title || 'Details')));
    this.sync(header);
    return header;
  }
  /** The same button stays (and keeps focus) when the block was folded or unfolded. */
  override updateDOM(dom: HTMLElement): boolean {
    if (!dom.classList.contains('cm-lp-expandable-header')) return false;
    const title = dom.querySelector('.cm-lp-expandable-title');
    if (!title) return false;
    title.replaceChildren(...inlineDom(this.title || 'Details'));
    this.sync(dom);
    return true;
  }
  private sync(header: HTMLElement): void {
    const toggle = header.querySelector<HTMLButtonElement>('.cm-lp-fold')!;
    const name = this.title
      ? inlinePieces(this.title)
          .map((p) => p.text)
          .join('')
      : 'Details';
    header.classList.toggle('cm-lp-folded', this.folded);
    toggle.disabled = !this.toggle;
    toggle.setAttribute('aria-expanded', String(!this.folded));
    toggle.setAttribute('aria-label', `${this.folded ? 'Unfold' : 'Fold'} “${name}”`);
    toggle.title = this.folded ? 'Show the hidden lines' : 'Hide the lines inside (the text stays)';
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

/** A card for `{% embed url="…" %}`. */
export class EmbedWidget extends KeyedWidget {
  toDOM(): HTMLElement {
    const url = safeUrl(this.key) ?? '';
    const link = el(
      'a',
      'cm-lp-card cm-lp-embed',
      icon('globe'),
      el('span', 'cm-lp-card-title', hostOf(url)),
      el('span', 'cm-lp-card-sub', url),
    );
    if (/^https?:/i.test(url)) {
      link.href = url;
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
    }
    link.dataset.testid = 'lp-embed';
    link.title = `Embedded: ${url} (Ctrl/Cmd+click to open)`;
    return link;
  }
  override ignoreEvent(): boolean {
    return false; // a plain click moves the cursor here (reveals the tag); Ctrl/Cmd+click opens (handled by the editor)
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url || 'Embed';
  }
}

/** A page card for `{% content-ref url="…" %}`. */
export class PageCardWidget extends KeyedWidget {
  constructor(
    readonly url: string,
    readonly title: string,
    readonly deps: WidgetDeps,
  ) {
    super(`${url}|${title}`);
  }
  toDOM(): HTMLElement {
    const card = el(
      'span',
      'cm-lp-card cm-lp-page-card',
      icon('file-text'),
      el('span', 'cm-lp-card-title', ...inlineDom(this.title || this.url)),
    );
    card.dataset.testid = 'lp-content-ref';
    card.setAttribute('role', 'link');
    card.tabIndex = 0;
    card.setAttribute('aria-label', `Open ${this.title || this.url}`);
    const open = (e: Event) => {
      if (openHref(this.url, this.deps)) e.preventDefault();
    };
    card.addEventListener('mousedown', (e) => e.preventDefault()); // a click opens the page, it does not move the cursor
    card.addEventListener('click', open);
    card.addEventListener('keydown', (e) => e.key === 'Enter' && open(e));
    return card;
  }
  override ignoreEvent(): boolean {
    return true; // the tag is edited from the keyboard (arrow onto its line) or in source mode
  }
}

/** A file chip for `{% file src="…" %}caption{% endfile %}`. */
export class FileChipWidget extends KeyedWidget {
  constructor(
    readonly src: string,
    readonly caption: string,
    readonly url: string | undefined,
  ) {
    super(`${src}|${caption}|${url ?? ''}`);
  }
  toDOM(): HTMLElement {
    const name = this.caption || decodeURIComponent(this.src.split('/').pop() ?? this.src);
    const chip = el('a', 'cm-lp-file', icon('paperclip'), ` ${name}`);
    if (this.url) {
      chip.href = this.url;
      chip.target = '_blank';
      chip.rel = 'noopener noreferrer';
    }
    chip.dataset.testid = 'lp-file';
    chip.title = fileIdOf(this.src) ? 'Uploaded file (Ctrl/Cmd+click to open)' : this.src;
    return chip;
  }
  override ignoreEvent(): boolean {
    return false;
  }
}

/** Moves the cursor into the source a block widget stands for (clicking a rendered table edits it). */
function editOnClick(view: EditorView, dom: HTMLElement): void {
  dom.addEventListener('mousedown', (e) => {
    if ((e.target as HTMLElement).closest('a')) return;
    e.preventDefault();
    view.dispatch({ selection: { anchor: view.posAtDOM(dom) } });
    view.focus();
  });
}

/** A GFM table, rendered. */
export class TableWidget extends KeyedWidget {
  toDOM(view: EditorView): HTMLElement {
    const { header, aligns, rows } = parseTable(this.key);
    const cell = (tag: 'th' | 'td', text: string, i: number) => {
      const c = el(tag, '', ...inlineDom(text));
      if (aligns[i]) c.style.textAlign = aligns[i];
      return c;
    };
    const table = el(
      'table',
      'cm-lp-table',
      el('thead', '', el('tr', '', ...header.map((t, i) => cell('th', t, i)))),
      el('tbody', '', ...rows.map((r) => el('tr', '', ...r.map((t, i) => cell('td', t, i))))),
    );
    const wrap = el('div', 'cm-lp-table-wrap', table);
    wrap.dataset.testid = 'lp-table';
    wrap.title = 'Click to edit the table';
    editOnClick(view, wrap);
    return wrap;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

/** Cards (`<table data-view="cards">`): each row a card, its first cell the title, the others text. */
export class CardsWidget extends KeyedWidget {
  toDOM(view: EditorView): HTMLElement {
    // DOMParser builds an inert document (no scripts run, nothing loads); only text is read from it.
    const parsed = new DOMParser().parseFromString(this.key, 'text/html');
    const grid = el('div', 'cm-lp-cards');
    grid.dataset.testid = 'lp-cards';
    // GitBook keeps a card's target and cover images in `data-hidden` columns: they are not card text.
    const hidden = new Set(
      Array.from(parsed.querySelectorAll('thead th'))
        .map((th, i) => (th.hasAttribute('data-hidden') ? i : -1))
        .filter((i) => i >= 0),
    );
    for (const row of Array.from(parsed.querySelectorAll('tbody tr'))) {
      const cells = Array.from(row.querySelectorAll('td'))
        .filter((_, i) => !hidden.has(i))
        .map((td) => td.textContent?.trim() ?? '');
      const [title, ...rest] = cells.filter((c) => c !== '');
      grid.append(el('div', 'cm-lp-card-item', el('strong', '', title ?? ''), ...rest.map((t) => el('span', '', t))));
    }
    editOnClick(view, grid);
    return grid;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}
