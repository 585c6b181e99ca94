import { WidgetType } from '@codemirror/view';
import { icon } from '../../ui/icons';
// One look for the card in the editor and the reading view.
import '../../preview/gitbook-blocks.css';

/** What an API operation card shows: the block's own attributes, and the summary when the spec is known. */
export interface OperationCardData {
  method: string;
  path: string;
  /** The spec's slug (`openapi-operation`) or URL (`openapi`, `swagger`). */
  spec: string;
  summary?: string;
}

/** The method badge's text and colour class (unknown methods get a neutral badge). */
export function methodBadge(method: string): { text: string; cls: string } {
  const m = method.toLowerCase();
  const known = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].includes(m);
  return { text: (m || '?').toUpperCase(), cls: `folio-api-method folio-api-method-${known ? m : 'other'}` };
}

/** The card's DOM, from text nodes only (a page is written by any editor of the space). */
export function operationCardDom(data: OperationCardData, tag: 'div' | 'span' = 'div'): HTMLElement {
  const card = document.createElement(tag);
  card.className = 'folio-api-card';
  const badge = methodBadge(data.method);
  const method = document.createElement('span');
  method.className = badge.cls;
  method.textContent = badge.text;
  const path = document.createElement('code');
  path.className = 'folio-api-path';
  path.textContent = data.path || '/path';
  const head = document.createElement('span');
  head.className = 'folio-api-head';
  head.append(method, path);
  const spec = document.createElement('span');
  spec.className = 'folio-api-spec';
  spec.append(icon('code'), document.createTextNode(data.spec || 'No spec chosen'));
  card.append(head);
  if (data.summary) {
    const summary = document.createElement('span');
    summary.className = 'folio-api-summary';
    summary.textContent = data.summary;
    card.append(summary);
  }
  card.append(spec);
  return card;
}

/** The live preview's card over an API operation block's opening tag line. */
export class OperationWidget extends WidgetType {
  constructor(readonly data: OperationCardData) {
    super();
  }
  override eq(other: WidgetType): boolean {
    if (!(other instanceof OperationWidget)) return false;
    const a = this.data;
    const b = other.data;
    return a.method === b.method && a.path === b.path && a.spec === b.spec && a.summary === b.summary;
  }
  toDOM(): HTMLElement {
    const card = operationCardDom(this.data, 'span');
    card.classList.add('cm-lp-api-card');
    card.dataset.testid = 'lp-api-operation';
    card.setAttribute('role', 'group');
    card.setAttribute(
      'aria-label',
      `API operation ${methodBadge(this.data.method).text} ${this.data.path}${this.data.summary ? `: ${this.data.summary}` : ''}`,
    );
    card.title = 'API operation (click to edit the spec, path and method)';
    return card;
  }
  override ignoreEvent(): boolean {
    return false; // a click moves the cursor onto the tag line: its attributes show as text to edit
  }
}
