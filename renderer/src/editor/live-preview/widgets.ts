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

/** The checkbox of a task list item; clicking it edits `[ ]` <-> `[x]` in the text. */
export class CheckboxWidget extends KeyedWidget {
  constructor(readonly checked: boolean) {
    super(String(checked));
  }
  toDOM(view: EditorView): HTMLElement {
    const box = el('input', 'cm-lp-task');
    box.type = 'checkbox';
    box.checked = this.checked;
    box.disabled = !canEdit(view);
    box.setAttribute('aria-label', this.checked ? 'Done: uncheck this task' : 'Check this task');
    box.dataset.testid = 'lp-task-checkbox';
    box.addEventListener('mousedown', (e) => e.preventDefault()); // keep the cursor where it is
    box.addEventListener('click', (e) => {
      e.preventDefault();
      toggleTask(view, view.posAtDOM(box));
    });
    box.addEventListener('keydown', (e) => {
      if (e.key === ' ' || e.key === 'Enter') {
        e.preventDefault();
        toggleTask(view, view.posAtDOM(box));
      }
    });
    return box;
  }
  override ignoreEvent(): boolean {
    return true;
  }
}

/** Whether widgets may edit the text (not in a read-only editor: merged change requests, readers). */
function canEdit(view: EditorView): boolean {
  return view.state.facet(EditorView.editable) && !view.state.readOnly;
}

function toggleTask(view: EditorView, pos: number): void {
  if (!canEdit(view)) return;
  const marker = view.state.sliceDoc(pos, pos + 3);
  if (!/^\[[ xX]\]$/.test(marker)) return;
  view.dispatch({ changes: { from: pos + 1, to: pos + 2, insert: marker[1] === ' ' ? 'x' : ' ' } });
}

/** Where an image widget sits relative to its source. */
export type ImagePlacement = 'replace' | 'after';

/**
 * An image drawn from its source, with a handle to resize it: the new width
 * is written back to the text as `<img … width="N">` (see image-source.ts).
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
    handle.setAttribute('aria-label', 'Image width (drag, or arrow keys)');
    handle.setAttribute('aria-valuemin', '40');
    handle.setAttribute('aria-valuemax', '2000');
    handle.setAttribute('aria-valuenow', String(this.image.width ?? 0));
    handle.dataset.testid = 'lp-image-resize';
    handle.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      handle.setPointerCapture(e.pointerId);
      const startX = e.clientX;
      const startWidth = img.getBoundingClientRect().width;
      const move = (m: PointerEvent) => (img.style.width = `${Math.max(40, startWidth + m.clientX - startX)}px`);
      const up = () => {
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        this.writeWidth(view, box, img.getBoundingClientRect().width);
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
    handle.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      const width = img.getBoundingClientRect().width * (e.key === 'ArrowRight' ? 1.1 : 0.9);
      this.writeWidth(view, box, Math.max(40, width));
    });
    box.append(img, handle);
    return box;
  }
  /** Replaces the image's source text with the sized `<img>` tag, if the text is still there. */
  private writeWidth(view: EditorView, box: HTMLElement, width: number): void {
    if (!canEdit(view)) return;
    const at = view.posAtDOM(box);
    const from = this.placement === 'replace' ? at : at - this.source.length;
    if (from < 0 || view.state.sliceDoc(from, from + this.source.length) !== this.source) return;
    view.dispatch({
      changes: { from, to: from + this.source.length, insert: sizedImageSource(this.image, width) },
    });
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

/** The summary row of an expandable (`{% expandable %}` or `<details>`). */
export class ExpandableHeaderWidget extends KeyedWidget {
  toDOM(): HTMLElement {
    return el('span', 'cm-lp-expandable-header', icon('chevron-down'), ' ', ...inlineDom(this.key || 'Details'));
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
