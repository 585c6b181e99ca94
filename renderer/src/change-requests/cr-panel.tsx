import { render } from 'preact';
import { describeError } from '../api/client';
import { promptDialog } from '../ui/kit/dialog';
import { toast } from '../ui/toast';
import type { ChangeRequestApi } from './cr-api';
import { ChangeRequestDetail } from './cr-detail';
import { ChangeRequestLists } from './cr-lists';
import type { CrNavigation } from './cr-navigation';
import { ChangeRequestStores } from './cr-stores';
import type { CrReviewContext } from './use-changed-pages';
import './cr-panel.css';

export type { CrNavigation } from './cr-navigation';
export type { CrReviewContext } from './use-changed-pages';
export { ChangeRequestStores } from './cr-stores';

export interface ChangeRequestsProps {
  stores: ChangeRequestStores;
  spaceId: string;
  /** The change request open in the editor; none on the space's main content. */
  current: string | undefined;
  nav: CrNavigation;
  /** Reviewing (reviews, live changes, diffs) needs the request's live document. */
  review?: CrReviewContext;
}

/** The panel's attributes, shared with the element the legacy ChangeRequestPanel mounts into. */
export const CR_SECTION = { class: 'change-requests', 'aria-label': 'Change requests', 'data-testid': 'cr-panel' };

/**
 * The change-requests panel. On the space's main content: the open, merged and closed change
 * requests and "New change request". Inside one: its status, reviews, the changed pages (live,
 * each with its diff), update from main, merge, and the way back to main.
 */
export function ChangeRequests(props: ChangeRequestsProps) {
  return (
    <section {...CR_SECTION}>
      <ChangeRequestsContent {...props} />
    </section>
  );
}

/** The panel's content, without its section. */
export function ChangeRequestsContent(props: ChangeRequestsProps) {
  return (
    <>
      <header class="panel-header">
        <h2>Change requests</h2>
      </header>
      <div class="cr-body">
        {props.current ? (
          <ChangeRequestDetail
            key={props.current}
            stores={props.stores}
            spaceId={props.spaceId}
            crId={props.current}
            nav={props.nav}
            review={props.review}
          />
        ) : (
          <ChangeRequestLists
            stores={props.stores}
            spaceId={props.spaceId}
            nav={props.nav}
            onCreate={() => void createChangeRequest(props.stores, props.spaceId, props.nav)}
          />
        )}
      </div>
    </>
  );
}

/** Asks for a subject, creates a change request and switches into it (the panel's button, Ctrl+Alt+R). */
export async function createChangeRequest(
  stores: ChangeRequestStores,
  spaceId: string,
  nav: Pick<CrNavigation, 'openChangeRequest'>,
): Promise<void> {
  const subject = await promptDialog('Subject of the change request', '', 'Create');
  if (!subject) return;
  try {
    const cr = await stores.create(spaceId, subject);
    toast(`Change request #${cr.number} created`);
    nav.openChangeRequest(cr.id);
  } catch (err) {
    toast(`Could not create the change request: ${describeError(err)}`, 'error');
  }
}

/**
 * The panel for code that is not Preact (the workspace, while it moves to components): `element`
 * holds `ChangeRequests`, which `destroy()` unmounts (its re-reading and live list stop).
 */
export class ChangeRequestPanel {
  readonly element: HTMLElement = document.createElement('section');
  private readonly stores: ChangeRequestStores;
  private readonly spaceId: string;

  constructor(
    crs: ChangeRequestApi,
    current: string | undefined,
    private readonly nav: CrNavigation,
    review?: CrReviewContext,
    /** The account's shared stores (`useApp().stores.changeRequests`); a private set when omitted. */
    stores?: ChangeRequestStores,
  ) {
    for (const [name, value] of Object.entries(CR_SECTION)) this.element.setAttribute(name, value);
    this.stores = stores ?? new ChangeRequestStores(crs.api);
    this.spaceId = crs.spaceId;
    render(
      <ChangeRequestsContent stores={this.stores} spaceId={this.spaceId} current={current} nav={nav} review={review} />,
      this.element,
    );
  }

  /** Asks for a subject, creates a change request and switches into it. */
  create(): Promise<void> {
    return createChangeRequest(this.stores, this.spaceId, this.nav);
  }

  /** Unmounts the panel: it stops re-reading the change request and following its document. */
  destroy(): void {
    render(null, this.element);
  }
}
