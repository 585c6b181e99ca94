import { useEffect, useRef, useState } from 'preact/hooks';
import { ChangeRequests, ChangeRequestStores, createChangeRequest } from '../change-requests/cr-panel';
import type { CrNavigation } from '../change-requests/cr-navigation';
import { Comments } from '../comments/comments-panel';
import type { Outbox } from '../comments/outbox';
import { People } from '../comments/people';
import { HistoryApi } from '../history/history-api';
import { RevisionHistory } from '../history/history';
import type { Stores } from '../stores/stores';
import type { OpenSpace } from './open-space';

/** What the workspace asks of the side panels (shortcuts and commands). */
export interface SidePanelsHandle {
  createChangeRequest(): void;
  focusComments(): void;
}

/**
 * The side column: change requests, history (on the space's main content only: it lists the
 * space's own revisions) and the open page's comments.
 */
export function SidePanels(props: {
  space: OpenSpace;
  stores: Stores;
  outbox: Outbox;
  pageId: string | undefined;
  /** The page open in the editor right now (kept when switching into a change request). */
  currentPage: () => string | undefined;
  openPage(pageId: string): void;
  openChangeRequest(crId: string | undefined, pageId?: string): void;
  handle: { current: SidePanelsHandle | undefined };
}) {
  const { space } = props;
  const { session } = space;
  const latest = useRef(props);
  latest.current = props;
  const [parts] = useState(() => {
    const people = new People(session.api, `${space.path}/comments`);
    people.learn(session.userId, session.displayName);
    // The account's change-request stores when the app keeps them, else this workspace's own.
    const shared = (props.stores as Stores & { changeRequests?: ChangeRequestStores }).changeRequests;
    const nav: CrNavigation = {
      openChangeRequest: (id) => latest.current.openChangeRequest(id, latest.current.currentPage()),
      openPage: (id) => latest.current.openPage(id),
    };
    return {
      people,
      nav,
      crStores: shared ?? new ChangeRequestStores(session.api),
      history: new HistoryApi(session.api, space.spaceId),
      review: {
        selfId: session.userId ?? '',
        doc: space.content.doc,
        content: space.contentDoc,
        session: space.content,
      },
    };
  });
  const commentInput = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    props.handle.current = {
      createChangeRequest: () => void createChangeRequest(parts.crStores, space.spaceId, parts.nav),
      focusComments: () => commentInput.current?.focus(),
    };
    return () => {
      props.handle.current = undefined;
    };
  }, [parts]);
  return (
    <aside class="side">
      <ChangeRequests
        stores={parts.crStores}
        spaceId={space.spaceId}
        current={space.changeRequestId}
        nav={parts.nav}
        review={parts.review}
      />
      {!space.changeRequestId && (
        <RevisionHistory
          history={parts.history}
          content={space.contentDoc}
          canEdit={() => space.editable}
          pageId={props.pageId}
        />
      )}
      <Comments
        discussion={space.discussion}
        outbox={props.outbox}
        people={parts.people}
        path={space.path}
        userId={session.userId}
        pageId={props.pageId}
        inputRef={commentInput}
      />
    </aside>
  );
}
