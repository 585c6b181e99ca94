import { h, replace } from '../ui/dom';
import { lineDiff, type DiffLine } from './compute';
import type { RenderedDiff } from './rendered';
import { isAbortError, renderedDiffOffThread } from './rendered-client';
import '../preview/gitbook-blocks.css';
import './diff.css';

export type DiffMode = 'words' | 'lines';

function lineRow(line: DiffLine): HTMLElement {
  const sign = line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' ';
  return h(
    'tr',
    { class: `diff-line diff-line-${line.kind}`, 'data-diff': line.kind },
    h(
      'td',
      { class: 'diff-no', 'aria-label': line.oldNo ? `old line ${line.oldNo}` : 'no old line' },
      String(line.oldNo ?? ''),
    ),
    h(
      'td',
      { class: 'diff-no', 'aria-label': line.newNo ? `new line ${line.newNo}` : 'no new line' },
      String(line.newNo ?? ''),
    ),
    h('td', { class: 'diff-sign', 'aria-label': line.kind === 'same' ? 'unchanged' : line.kind }, sign),
    h('td', { class: 'diff-code' }, line.text || ' '),
  );
}

/**
 * A reusable diff of two versions of a page: "Changes" shows the page rendered
 * as a reader sees it, with the words added (green, underlined) and removed
 * (red, struck through) marked inside its headings, lists, tables and blocks;
 * "Markdown" shows the raw markdown line by line with +/− and line numbers.
 * Colours are never the only signal: marks are underlined/struck and carry
 * hidden "[added: …]" text for screen readers. The rendered diff is computed
 * in a Web Worker (rendered-client.ts), so a long page never freezes the
 * window; a result that a newer `show()` superseded is dropped.
 */
export class DiffView {
  readonly element = h('div', { class: 'diff-view', 'data-testid': 'diff-view' });
  // Focusable, so a keyboard user can scroll a long diff (the body scrolls; the page behind does not).
  private readonly body = h('div', { class: 'diff-body', tabindex: '0', role: 'region', 'aria-label': 'Differences' });
  private readonly summary = h('p', { class: 'diff-summary', 'data-testid': 'diff-summary', 'aria-live': 'polite' });
  private readonly tabs: Record<DiffMode, HTMLButtonElement>;
  private before = '';
  /** Counts renders, so a slow one never overwrites a newer one. */
  private renders = 0;
  private after = '';
  private cache: { before: string; after: string; diff: RenderedDiff } | undefined;
  /** The diff being computed, so a mode switch waits for it instead of asking again. */
  private computing: { before: string; after: string; diff: Promise<RenderedDiff>; abort: AbortController } | undefined;
  /** Whether the view was on the page when a diff was asked for (then leaving the page makes it stale). */
  private shownWhileConnected = false;

  constructor(private mode: DiffMode = 'words') {
    const tab = (m: DiffMode, label: string) =>
      h(
        'button',
        {
          type: 'button',
          class: 'diff-tab',
          role: 'tab',
          'data-testid': `diff-mode-${m}`,
          onclick: () => this.setMode(m),
        },
        label,
      );
    this.tabs = { words: tab('words', 'Changes'), lines: tab('lines', 'Markdown') };
    this.element.append(
      h(
        'div',
        { class: 'diff-toolbar' },
        h('div', { class: 'diff-tabs', role: 'tablist', 'aria-label': 'Diff view' }, this.tabs.words, this.tabs.lines),
        this.summary,
      ),
      this.body,
    );
    this.syncTabs();
    // Links in the diff must not navigate the app away: web links open in a new window, others do nothing.
    this.body.addEventListener('click', (event) => {
      const link = (event.target as HTMLElement).closest('a');
      if (!link) return;
      event.preventDefault();
      const href = link.getAttribute('href') ?? '';
      if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener');
    });
  }

  /** Shows the change from `before` to `after` (re-rendered in the current mode). */
  show(before: string, after: string): void {
    this.before = before;
    this.after = after;
    // A diff of other texts still computing is stale now: stop it, so this one does not wait behind it.
    if (this.computing && (this.computing.before !== before || this.computing.after !== after)) {
      this.computing.abort.abort();
      this.computing = undefined;
    }
    this.render();
  }

  /**
   * Stops a diff still computing for this view (its host is going away). Without it, a detached
   * view's diff is stopped anyway when another diff is asked for (rendered-client.ts's `stale`).
   */
  dispose(): void {
    this.renders++;
    this.computing?.abort.abort();
    this.computing = undefined;
  }

  setMode(mode: DiffMode): void {
    this.mode = mode;
    this.syncTabs();
    this.render();
  }

  private syncTabs(): void {
    for (const [m, el] of Object.entries(this.tabs)) el.setAttribute('aria-selected', String(m === this.mode));
  }

  private render(): void {
    const token = ++this.renders;
    if (this.before === this.after && !this.before) {
      this.summary.textContent = 'No changes';
      replace(this.body, h('p', { class: 'state state-empty' }, 'This page is empty in both versions.'));
      return;
    }
    if (this.mode === 'lines') {
      replace(
        this.body,
        h(
          'div',
          { class: 'diff-lines-wrap', role: 'tabpanel' },
          h(
            'table',
            { class: 'diff-lines', 'data-testid': 'diff-lines' },
            h('tbody', {}, ...lineDiff(this.before, this.after).map(lineRow)),
          ),
        ),
      );
    } else if (!this.body.querySelector('[data-testid=diff-words]')) {
      replace(this.body, h('p', { class: 'state state-loading', role: 'status' }, 'Rendering the changes…'));
    }
    this.renderedDiff(this.before, this.after).then(
      (diff) => {
        if (token !== this.renders) return; // a newer show() or mode switch took over
        const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
        this.summary.textContent =
          this.before === this.after
            ? 'No changes'
            : `${plural(diff.stats.added, 'word')} added, ${plural(diff.stats.removed, 'word')} removed`;
        if (this.mode !== 'words') return;
        const page = h('div', {
          class: 'diff-words diff-rendered markdown-body preview',
          role: 'tabpanel',
          'data-testid': 'diff-words',
        });
        // Sanitized by renderedDiff (the preview's hast-util-sanitize schema; only our ins/del/span added).
        page.innerHTML = diff.html;
        replace(this.body, page);
      },
      (err: unknown) => {
        if (token === this.renders && this.mode === 'words' && !isAbortError(err))
          replace(this.body, h('p', { class: 'state state-error', role: 'alert' }, 'The changes could not be shown.'));
      },
    );
  }

  /** The rendered diff of the two texts: remembered, being computed, or asked of the worker now. */
  private renderedDiff(before: string, after: string): Promise<RenderedDiff> {
    if (this.cache?.before === before && this.cache.after === after) return Promise.resolve(this.cache.diff);
    if (this.computing?.before === before && this.computing.after === after) return this.computing.diff;
    this.computing?.abort.abort();
    const abort = new AbortController();
    this.shownWhileConnected = this.element.isConnected;
    const diff = renderedDiffOffThread(before, after, {
      signal: abort.signal,
      // Nobody waits for it once the view has left the page (its dialog closed).
      stale: () => this.shownWhileConnected && !this.element.isConnected,
    });
    const computing = { before, after, diff, abort };
    this.computing = computing;
    const settle = () => {
      if (this.computing === computing) this.computing = undefined;
    };
    diff.then((result) => {
      settle();
      this.cache = { before, after, diff: result };
    }, settle);
    return diff;
  }
}
