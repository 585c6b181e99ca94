import { render } from 'preact';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { HistoryApi } from './history-api';
import { HISTORY_SECTION, RevisionHistoryContent, type RevisionHistoryProps } from './history';

export { RevisionHistory, type RevisionHistoryProps } from './history';

/**
 * The History panel for code that is not Preact (the workspace, while it moves to components):
 * `element` holds `RevisionHistory`, which `destroy()` unmounts.
 */
export class HistoryPanel {
  readonly element: HTMLElement = document.createElement('section');
  private props: RevisionHistoryProps;

  constructor(history: HistoryApi, content: ContentDoc, canEdit: () => boolean) {
    for (const [name, value] of Object.entries(HISTORY_SECTION)) this.element.setAttribute(name, value);
    this.props = { history, content, canEdit, pageId: undefined };
    this.render();
  }

  /** Follows the open page (the "This page" scope lists its revisions). */
  setPage(pageId: string | undefined): void {
    if (pageId === this.props.pageId) return;
    this.props = { ...this.props, pageId };
    this.render();
  }

  /** Unmounts the panel (a pending reload after a restore is cancelled). */
  destroy(): void {
    render(null, this.element);
  }

  private render(): void {
    render(<RevisionHistoryContent {...this.props} />, this.element);
  }
}
