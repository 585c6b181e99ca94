import { WidgetType, type EditorView } from '@codemirror/view';
import { CONTENTKIT_STYLE, renderContentKit } from '../../../../shared/contentkit';
import type { IntegrationBlockRef } from '../../../../shared/markdown/integration-block';
import { renderMarkdown } from '../../preview/render-markdown';
import { integrationBlocksFacet, type BlockRender, type IntegrationBlocksCatalog } from './catalog';
import './integration-block.css';

/**
 * The live preview of an integration block's tag line: what the integration's script renders,
 * drawn by shared/contentkit (every string escaped, `markdown` through the preview's sanitizer,
 * webframes as links: the app's CSP allows no frames). Interactive: a button's action, with the
 * current values of the block's inputs as its state, renders the block again. While loading, or
 * when it cannot render, a placeholder with the block's title and, editors being the readers
 * here, the reason. Clicking outside a control puts the cursor on the tag (its props to edit).
 */

let styled = false;
/** The ContentKit stylesheet, once per document (the same rules as the published site's). */
function ensureStyle(doc: Document): void {
  if (styled || doc.querySelector('style[data-folio-contentkit]')) return;
  const style = doc.createElement('style');
  style.dataset.folioContentkit = '';
  style.textContent = CONTENTKIT_STYLE;
  doc.head.append(style);
  styled = true;
}

/** The HTML of a render: the ContentKit, or the placeholder. */
export function blockHtml(title: string, render: BlockRender): string {
  if (render.status === 'ok')
    return renderContentKit(render.element, {
      state: render.state,
      interactive: true,
      frames: false,
      markdown: (source) => renderMarkdown(source),
    });
  const esc = (t: string) => t.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const reason = render.status === 'loading' ? 'Rendering…' : render.message;
  return (
    `<div class="folio-ck-placeholder" role="note" data-integration-block="${render.status}">` +
    `<strong>${esc(title)}</strong><span class="ck-reason">${esc(reason)}</span></div>`
  );
}

/** The values of the block's inputs, by state key (the state an action is rendered with). */
function inputState(root: HTMLElement, base: Record<string, unknown>): Record<string, unknown> {
  const state = { ...base };
  root.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[data-ck-state]').forEach((el) => {
    const key = el.dataset.ckState!;
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      if (el.getAttribute('role') === 'switch') state[key] = el.checked;
      else if (el.checked) state[key] = el.value;
    } else if (el instanceof HTMLSelectElement && el.multiple)
      state[key] = Array.from(el.selectedOptions, (o) => o.value);
    else state[key] = el.value;
  });
  return state;
}

export class IntegrationBlockWidget extends WidgetType {
  constructor(
    readonly ref: IntegrationBlockRef,
    readonly title: string,
    readonly render: BlockRender,
  ) {
    super();
  }
  override eq(other: WidgetType): boolean {
    return (
      other instanceof IntegrationBlockWidget &&
      other.title === this.title &&
      other.render === this.render &&
      JSON.stringify(other.ref) === JSON.stringify(this.ref)
    );
  }
  toDOM(view: EditorView): HTMLElement {
    ensureStyle(view.dom.ownerDocument);
    const root = document.createElement('span');
    root.className = 'cm-lp-integration';
    root.dataset.testid = 'lp-integration-block';
    root.dataset.integration = `${this.ref.integration}/${this.ref.block}`;
    root.setAttribute('role', 'group');
    root.setAttribute('aria-label', `${this.title} (integration block)`);
    // renderContentKit escapes every string it is given: this HTML holds no markup of the integration's.
    root.innerHTML = blockHtml(this.title, this.render);
    const catalog = view.state.facet(integrationBlocksFacet);
    if (catalog && this.render.status === 'ok') this.wire(root, catalog, this.render);
    return root;
  }
  /** Buttons run their action against the script, with the inputs' values as state. */
  private wire(root: HTMLElement, catalog: IntegrationBlocksCatalog, render: Extract<BlockRender, { status: 'ok' }>) {
    root.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-ck-action]');
      if (!button) return;
      event.preventDefault();
      let action: Record<string, unknown>;
      try {
        action = JSON.parse(button.dataset.ckAction!) as Record<string, unknown>;
      } catch {
        return;
      }
      button.disabled = true;
      void catalog.act({
        integration: this.ref.integration,
        block: this.ref.block,
        props: this.ref.props,
        state: inputState(root, render.state),
        action,
      });
    });
  }
  override ignoreEvent(event: Event): boolean {
    // The block's controls handle their own events; elsewhere a click moves the cursor onto the tag.
    const target = event.target as HTMLElement | null;
    return Boolean(target?.closest('button, input, select, textarea, a'));
  }
}
