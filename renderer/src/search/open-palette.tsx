import type * as Y from 'yjs';
import { ContentDoc } from '../../../shared/doc/content-doc';
import type { ApiClient } from '../api/client';
import type { ShortcutAction } from '../shortcuts';
import { Icon } from '../ui/kit/icon';
import { paletteCommands } from './commands';
import { showPalette } from './palette';
import { editsText, revealHeading, waitForEditor } from './reveal-heading';
import { headingLines } from './sections';
import { searchSpace, warmLocalIndex } from './space-search';
import type { OtherSpace } from './stored-spaces';
import type { SearchHit } from './types';
import './search-button.css';

/**
 * The palette as the workspace opens it: searching the open space, opening
 * a found section (the page through the router, then its heading in the
 * editor) and running the workspace's commands.
 */

/** What the workspace gives the palette. */
export interface WorkspacePaletteDeps {
  api: ApiClient;
  spaceId: string;
  changeRequestId?: string;
  /** The open content document. */
  doc(): Y.Doc;
  /** Whether its socket is connected and synced. */
  connected(): boolean;
  /** The workspace's element (the page editor is found inside it). */
  host: HTMLElement;
  openPage(pageId: string): void;
  /** Other spaces searched offline (their stored copies). */
  otherSpaces?(): Promise<OtherSpace[]>;
  /** Opens a page of another space (a hit from `otherSpaces`). */
  openInSpace?(spaceId: string, pageId: string, sectionId: string): void;
  run(action: ShortcutAction): void;
  openSettings(): void;
  signOut(): void;
  toPicker(): void;
}

/** Opens the search and command palette of the workspace (`initialQuery` ">" lists the commands). */
export function openWorkspacePalette(deps: WorkspacePaletteDeps, initialQuery?: string): void {
  warmLocalIndex(deps);
  showPalette({
    initialQuery,
    search: (query, signal) => searchSpace(deps, query, signal),
    commands: paletteCommands({ ...deps, toggleSource: sourceToggle(deps.host) }),
    open: (hit) => openHit(deps, hit),
  });
}

/**
 * The open page's Source button as a command: the editor toolbar owns the source/live-preview
 * state (and its Ctrl+Alt+S key), so the palette presses that button rather than keep a copy.
 */
function sourceToggle(host: HTMLElement): (() => void) | undefined {
  const button = host.querySelector<HTMLButtonElement>('[data-testid=toggle-source]');
  return button && !button.disabled ? () => button.click() : undefined;
}

/** Opens the hit's page, then scrolls its editor to the hit's heading. */
function openHit(deps: WorkspacePaletteDeps, hit: SearchHit): void {
  if (hit.spaceId !== deps.spaceId) {
    if (!deps.openInSpace) return;
    // Another workspace replaces this one: take the first new editor that has the heading.
    const before = new Set(Array.from(document.querySelectorAll('.cm-editor')));
    deps.openInSpace(hit.spaceId, hit.pageId, hit.sectionId);
    void waitForEditor(
      document,
      (view) =>
        !before.has(view.dom) &&
        (hit.sectionId === '' || headingLines(view.state.doc.toString()).some((h) => h.id === hit.sectionId)),
    ).then((view) => view && revealHeading(view, hit.sectionId, hit.sectionTitle));
    return;
  }
  const content = new ContentDoc(deps.doc());
  if (!content.hasPage(hit.pageId)) return deps.openPage(hit.pageId); // the page view says it is gone
  const body = content.pageBody(hit.pageId);
  deps.openPage(hit.pageId);
  void waitForEditor(deps.host, (view) => editsText(view, body)).then(
    (view) => view && revealHeading(view, hit.sectionId, hit.sectionTitle),
  );
}

/** The header's search button (the palette for pointer and touch users; it shows the shortcut). */
export function SearchButton({ open }: { open: () => void }) {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <button
      type="button"
      class="search-button"
      title={`Search and commands (${mac ? '⌘K' : 'Ctrl+K'})`}
      aria-keyshortcuts={mac ? 'Meta+K' : 'Control+K'}
      data-testid="open-palette"
      onClick={() => open()}
    >
      <Icon name="search" />
      <span class="search-button-label">Search</span>
      {/* The name is the visible word "Search" (what speech users say); the shortcut is announced
          through aria-keyshortcuts, so the key cap stays out of the name. */}
      <kbd class="search-button-keys" aria-hidden="true">
        {mac ? '⌘K' : 'Ctrl K'}
      </kbd>
    </button>
  );
}
