import { useEffect, useRef, useState } from 'preact/hooks';
import { ComputedPageView } from '../computed/computed-page-view';
import { useComputedSource } from '../computed/use-computed-source';
import { useNewApiReference } from '../computed/use-new-api-reference';
import type { SpaceRoute } from '../routes';
import { PageHeader } from '../page-header/page-header';
import { useApp } from '../screens/context';
import { workspaceActions } from '../screens/workspace-actions';
import { closePalette } from '../search/palette';
import { openWorkspacePalette } from '../search/open-palette';
import { recentSpaces } from '../session';
import type { ShortcutAction } from '../shortcuts';
import { announce } from '../sync/presence';
import { createAndOpenPage, PageTree } from '../tree/page-tree';
import { ErrorState, Loading } from '../ui/kit/async-section';
import { useResource, useWindowTitle } from '../ui/kit/hooks';
import { uploadImage } from '../upload/image-upload';
import { useOpenPage, usePageTitle } from '../workspace/open-page';
import { OpenSpace } from '../workspace/open-space';
import { SidePanels, type SidePanelsHandle } from '../workspace/side-panels';
import { SpaceHeader } from '../workspace/space-header';
import { useRenameSpace, useSpaceTitle } from '../workspace/space-title';
import { showShortcutHelp } from './shortcut-help';
import { WorkspaceTopBar } from '../workspace/workspace-top-bar';
import { PageView, type PageViewHandle } from './page-view';

/**
 * One open space (or one of its change requests): page tree, editor and preview, comments,
 * change requests, presence and the sync indicator. It opens the documents from IndexedDB first,
 * so everything below works without the server; REST-backed parts (space title, change requests,
 * uploads) show their own error states when it is unreachable. The space screen keys it by space
 * and change request: another one is a new workspace, and leaving closes everything it opened.
 */
export function Workspace({ route }: { route: SpaceRoute }) {
  const app = useApp();
  const { session, outbox, nav } = app;
  const { spaceId, changeRequestId } = route;
  const pageView = useRef<PageViewHandle>();
  const panels = useRef<SidePanelsHandle>();
  const root = useRef<HTMLDivElement>(null);
  const [space] = useState(
    () => new OpenSpace(session, outbox, spaceId, changeRequestId, () => pageView.current?.refreshPreview()),
  );
  const [status, setStatus] = useState<'loading' | 'ready' | { problem: string }>('loading');
  const [currentPage, setCurrentPage] = useState<string>();
  const { title: spaceTitle } = useSpaceTitle(spaceId);
  const rename = useRenameSpace(spaceId);
  const loaded = status === 'ready';
  const pageTitle = usePageTitle(loaded ? space : undefined, currentPage);
  useWindowTitle(pageTitle && spaceTitle ? `${pageTitle} · ${spaceTitle}` : (spaceTitle ?? pageTitle));

  const toPage = (pageId: string | undefined) =>
    nav.go({ view: 'space', spaceId, ...(changeRequestId ? { changeRequestId } : {}), ...(pageId ? { pageId } : {}) });
  const toChangeRequest = (crId: string | undefined, pageId?: string) =>
    nav.go({ view: 'space', spaceId, ...(crId ? { changeRequestId: crId } : {}), ...(pageId ? { pageId } : {}) });
  const createPage = (parent: string | null = null) => {
    if (loaded) void createAndOpenPage(space.contentDoc, toPage, parent);
  };

  const openPalette = () =>
    openWorkspacePalette({
      api: session.api,
      spaceId,
      changeRequestId,
      doc: () => space.content.doc,
      connected: () => space.content.state === 'online',
      host: root.current!,
      openPage: (id) => toPage(id),
      otherSpaces: () => recentSpaces(session),
      openInSpace: (otherSpace, pageId) => nav.go({ view: 'space', spaceId: otherSpace, pageId }),
      run: (action) => run(action),
      openSettings: () => nav.openSettings(),
      signOut: () => nav.signOut(),
      toPicker: () => nav.go({ view: 'picker' }),
    });

  /** Runs a keyboard shortcut or menu command. */
  const run = (action: ShortcutAction) => {
    if (action === 'new-page') createPage();
    else if (action === 'new-change-request') panels.current?.createChangeRequest();
    else if (action === 'toggle-preview') pageView.current?.togglePreview();
    else if (action === 'find-page') openPalette();
    else if (action === 'comment') panels.current?.focusComments();
    else if (action === 'upload-image') pageView.current?.pickImage();
    else if (action === 'show-shortcuts') showShortcutHelp();
  };
  const latestRun = useRef(run);
  latestRun.current = run;

  useEffect(() => {
    let live = true;
    space.load().then(
      (ok) => live && ok && setStatus('ready'),
      (err: unknown) => live && setStatus({ problem: `Could not open the space: ${(err as Error).message}` }),
    );
    const runAction = (action: ShortcutAction) => latestRun.current(action);
    workspaceActions.run = runAction;
    return () => {
      live = false;
      if (workspaceActions.run === runAction) workspaceActions.run = undefined;
      closePalette();
      space.destroy();
    };
  }, [space]);

  // A link to a heading (`urls.app` of a search hit): scroll to it once the page has rendered.
  useEffect(() => {
    const section = route.section;
    if (!loaded || !section) return;
    let live = true;
    import('../org/scroll-section').then(
      ({ scrollToSection }) => live && root.current && scrollToSection(root.current, section),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [loaded]);

  return (
    <div ref={root} class="workspace">
      <WorkspaceTopBar space={space} title={spaceTitle} outbox={outbox} loaded={loaded} openPalette={openPalette} />
      {status === 'loading' ? (
        <Loading what="space" />
      ) : status === 'ready' ? (
        <WorkspaceBody
          space={space}
          requested={route.pageId}
          spaceTitle={spaceTitle}
          rename={() => void rename()}
          toPage={toPage}
          toChangeRequest={toChangeRequest}
          createPage={createPage}
          upload={async (file) => {
            // The space's organization owns the file: the space from the store (no second request).
            const { organization } = await app.stores.space.get(spaceId);
            return uploadImage(session.api, organization, space.contentDoc, file);
          }}
          pageView={pageView}
          panels={panels}
          onPage={setCurrentPage}
        />
      ) : (
        <ErrorState message={status.problem} />
      )}
    </div>
  );
}

/** The loaded workspace: tree, open page and side panels, following the route's page. */
function WorkspaceBody(props: {
  space: OpenSpace;
  requested: string | undefined;
  spaceTitle: string | undefined;
  rename: () => void;
  toPage: (pageId: string | undefined) => void;
  toChangeRequest: (crId: string | undefined, pageId?: string) => void;
  createPage: (parent?: string | null) => void;
  upload: (file: File) => Promise<string>;
  pageView: { current: PageViewHandle | undefined };
  panels: { current: SidePanelsHandle | undefined };
  onPage: (pageId: string | undefined) => void;
}) {
  const { space, toPage } = props;
  const { session, outbox, stores } = useApp();
  const current = useOpenPage(space, props.requested);
  // The space's organization (from the store: no request of its own), for the editor's API operation cards.
  const spaceState = useResource(stores.space, space.spaceId).state;
  const orgId = 'data' in spaceState ? spaceState.data?.organization : undefined;
  const editable = useEditable(space);
  // A computed page has no text to edit: its own view replaces the editor.
  const computed = useComputedSource(space.contentDoc, current);
  const apiReference = useNewApiReference({
    content: space.contentDoc,
    spaceId: space.spaceId,
    orgId,
    editable,
    open: toPage,
  });
  const latest = useRef(current);
  latest.current = current;

  useEffect(() => {
    props.onPage(current);
    announce(space.content.provider.awareness, { name: session.displayName, id: session.userId }, current);
  }, [current]);

  const appBase = () =>
    `${session.api.serverUrl}/app/s/${space.spaceId}${space.changeRequestId ? `/cr/${space.changeRequestId}` : ''}`;
  const header = current && (
    <PageHeader
      key={current}
      content={space.contentDoc}
      tree={space.model}
      pageId={current}
      open={toPage}
      appBase={appBase}
      editable={editable}
    />
  );
  return (
    <div class="workspace-body">
      <PageTree
        model={space.model}
        content={space.contentDoc}
        selected={current}
        open={toPage}
        createPage={props.createPage}
        storageKey={space.changeRequestId ? `${space.spaceId}/${space.changeRequestId}` : space.spaceId}
        addMenu={apiReference.items}
        header={
          <SpaceHeader
            title={props.spaceTitle}
            rename={props.rename}
            spaceId={space.spaceId}
            changeRequestId={space.changeRequestId}
          />
        }
      />
      {computed && current ? (
        <ComputedPageView
          content={space.contentDoc}
          pageId={current}
          source={computed}
          editable={editable}
          header={header}
          api={session.api}
          spaceId={space.spaceId}
          orgId={orgId}
        />
      ) : (
        <PageView
          content={space.contentDoc}
          awareness={space.content.provider.awareness}
          files={space.files}
          pageId={current}
          editable={editable}
          openPage={toPage}
          createPage={() => props.createPage()}
          upload={props.upload}
          handle={props.pageView}
          openApi={orgId ? { api: session.api, orgId } : undefined}
          integrations={{ api: session.api, spaceId: space.spaceId }}
          header={header}
        />
      )}
      {apiReference.dialog}
      <SidePanels
        space={space}
        stores={stores}
        outbox={outbox}
        pageId={current}
        currentPage={() => latest.current}
        openPage={toPage}
        openChangeRequest={props.toChangeRequest}
        handle={props.panels}
      />
    </div>
  );
}

/** Whether the content accepts edits, following the server's answer (a refusal makes it read-only). */
function useEditable(space: OpenSpace): boolean {
  const [editable, setEditable] = useState(space.editable);
  useEffect(() => space.content.onState(() => setEditable(space.editable)), [space]);
  return editable;
}
