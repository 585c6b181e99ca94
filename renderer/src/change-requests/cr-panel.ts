import { describeError } from '../api/client';
import type { ChangeRequest } from '../api/types';
import { promptDialog, confirmDialog } from '../ui/dialog';
import { empty, errorState, h, loading, replace } from '../ui/dom';
import { toast } from '../ui/toast';
import type { ChangeRequestApi } from './cr-api';

/** How often an open change request is re-read, so "outdated" (main moved on) and status changes show without a reload. */
const RECHECK_MS = 10_000;

/** What the panel asks the workspace to do. */
export interface CrNavigation {
  /** Switch the editor into a change request (undefined: back to the space's main content). */
  openChangeRequest(crId: string | undefined): void;
  openPage(pageId: string): void;
}

/**
 * The change-requests panel. On the space's main content: the active change
 * requests and "New change request". Inside one: its status, changed pages,
 * update from main, merge, and the way back to main.
 */
export class ChangeRequestPanel {
  readonly element = h('section', {
    class: 'change-requests',
    'aria-label': 'Change requests',
    'data-testid': 'cr-panel',
  });
  private readonly body = h('div', { class: 'cr-body' });
  private shown: ChangeRequest | undefined;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly crs: ChangeRequestApi,
    private readonly current: string | undefined,
    private readonly nav: CrNavigation,
  ) {
    this.element.append(h('header', { class: 'panel-header' }, h('h2', {}, 'Change requests')), this.body);
    void this.refresh();
    if (current) this.timer = setInterval(() => void this.recheck(), RECHECK_MS);
  }

  /** Stops re-reading the change request. */
  destroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Asks for a subject, creates a change request and switches into it. */
  async create(): Promise<void> {
    const subject = await promptDialog('Subject of the change request', '', 'Create');
    if (!subject) return;
    try {
      const cr = await this.crs.create(subject);
      toast(`Change request #${cr.number} created`);
      this.nav.openChangeRequest(cr.id);
    } catch (err) {
      toast(`Could not create the change request: ${describeError(err)}`, 'error');
    }
  }

  /** Reloads what the panel shows. */
  async refresh(): Promise<void> {
    replace(this.body, loading('change requests'));
    try {
      if (this.current) this.showOne(await this.crs.get(this.current));
      else this.showList(await this.crs.listActive());
    } catch (err) {
      replace(
        this.body,
        errorState(`Change requests are unavailable: ${describeError(err)}`, () => void this.refresh()),
      );
    }
  }

  private showList(list: ChangeRequest[]): void {
    const create = h(
      'button',
      {
        type: 'button',
        class: 'primary',
        'data-testid': 'cr-new',
        title: 'New change request (Ctrl+Alt+R)',
        onclick: () => void this.create(),
      },
      '+ New change request',
    );
    if (list.length === 0) {
      replace(this.body, create, empty('No open change requests. Edits go straight to the space.'));
      return;
    }
    const items = list.map((cr) =>
      h(
        'li',
        {},
        h(
          'button',
          { type: 'button', class: 'link', 'data-testid': 'cr-item', onclick: () => this.nav.openChangeRequest(cr.id) },
          `#${cr.number} ${cr.subject || 'Untitled'}`,
        ),
        ' ',
        h('span', { class: `badge badge-${cr.status}` }, cr.status),
      ),
    );
    replace(this.body, create, h('ul', { class: 'cr-list' }, ...items));
  }

  /** Re-reads the open change request and re-renders only when what the panel shows changed (no flicker, no lost focus). */
  private async recheck(): Promise<void> {
    if (!this.current || !this.shown) return;
    try {
      const cr = await this.crs.get(this.current);
      if (cr.outdated !== this.shown.outdated || cr.status !== this.shown.status || cr.subject !== this.shown.subject)
        this.showOne(cr);
    } catch {
      // Offline or refused: keep showing the last answer; refresh() reports errors when asked.
    }
  }

  private showOne(cr: ChangeRequest): void {
    this.shown = cr;
    const editable = cr.status === 'draft' || cr.status === 'open';
    const status = h(
      'select',
      { 'aria-label': 'Status', 'data-testid': 'cr-status', disabled: !editable },
      ...(['draft', 'open', 'archived'] as const).map((s) => h('option', { value: s, selected: s === cr.status }, s)),
    );
    if (!editable) status.append(h('option', { value: cr.status, selected: true }, cr.status));
    status.addEventListener(
      'change',
      () =>
        void this.run(() => this.crs.setStatus(cr.id, status.value as 'draft' | 'open' | 'archived'), 'Status changed'),
    );
    const changes = h('div', { class: 'cr-changes', 'data-testid': 'cr-changes' }, loading('changes'));
    replace(
      this.body,
      h(
        'p',
        { class: 'cr-title' },
        h('strong', {}, `#${cr.number} ${cr.subject || 'Untitled'}`),
        cr.outdated
          ? h(
              'span',
              {
                class: 'badge badge-outdated',
                'data-testid': 'cr-outdated',
                title: 'The space changed since this request was created or last updated: update from main',
              },
              'outdated',
            )
          : null,
      ),
      h('label', {}, 'Status ', status),
      h(
        'div',
        { class: 'cr-actions' },
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'cr-update',
            disabled: !editable,
            onclick: () => void this.run(() => this.crs.updateFromMain(cr.id), 'Updated from main'),
          },
          'Update from main',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'primary',
            'data-testid': 'cr-merge',
            disabled: !editable,
            onclick: () => void this.merge(cr),
          },
          'Merge',
        ),
        h(
          'button',
          { type: 'button', 'data-testid': 'cr-back', onclick: () => this.nav.openChangeRequest(undefined) },
          'Back to main',
        ),
      ),
      h(
        'h3',
        {},
        'Changed pages',
        ' ',
        h(
          'button',
          { type: 'button', class: 'link', 'data-testid': 'cr-changes-refresh', onclick: () => void this.refresh() },
          'refresh',
        ),
      ),
      changes,
    );
    void this.loadChanges(cr.id, changes);
  }

  private async loadChanges(crId: string, into: HTMLElement): Promise<void> {
    try {
      const { changes, more } = await this.crs.changes(crId);
      if (changes.length === 0) {
        replace(into, empty('No changes yet. Edit pages to change them in this request.'));
        return;
      }
      const items = changes.map((c) =>
        h(
          'li',
          {},
          h('button', { type: 'button', class: 'link', onclick: () => this.nav.openPage(c.page.id) }, c.page.title),
          ' ',
          h('span', { class: 'badge' }, c.type),
        ),
      );
      replace(into, h('ul', { class: 'cr-change-list' }, ...items), more ? h('p', {}, `…and ${more} more`) : null);
    } catch (err) {
      replace(
        into,
        errorState(`Changes are unavailable: ${describeError(err)}`, () => void this.loadChanges(crId, into)),
      );
    }
  }

  private async merge(cr: ChangeRequest): Promise<void> {
    if (!(await confirmDialog(`Merge “${cr.subject || `#${cr.number}`}” into the space?`, 'Merge'))) return;
    try {
      await this.crs.merge(cr.id);
      toast(`Change request #${cr.number} merged`);
      this.nav.openChangeRequest(undefined);
    } catch (err) {
      toast(`Could not merge: ${describeError(err)}`, 'error');
    }
  }

  private async run(call: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await call();
      toast(done);
    } catch (err) {
      toast(describeError(err), 'error');
    }
    await this.refresh();
  }
}
