import type { Outbox } from '../comments/outbox';
import { SearchButton } from '../search/open-palette';
import { ConnectionStatus } from '../sync/connection-status';
import { Presence } from '../sync/presence';
import { Icon } from '../ui/kit/icon';
import { TopBar } from '../ui/kit/top-bar';
import { TranslationBadge } from '../translations/translation-badge';
import type { OpenSpace } from './open-space';
import { showShortcutHelp } from '../views/shortcut-help';

/**
 * The workspace's top bar: back to the spaces, the space's icon and title (a translated space and a
 * change request are badged), then search, who else is here, the connection state and the shortcuts,
 * before the account's own controls (the kit TopBar's).
 */
export function WorkspaceTopBar(props: {
  space: OpenSpace;
  title: string | undefined;
  outbox: Outbox;
  loaded: boolean;
  openPalette: () => void;
}) {
  const { space } = props;
  return (
    <TopBar
      back={{ to: { view: 'picker' }, label: 'Spaces', title: 'All spaces' }}
      title={
        <>
          <Icon name="book-open" class="space-icon" />
          <h2 class="space-title" data-testid="space-title">
            {props.title ?? 'Space'}
          </h2>
          <TranslationBadge spaceId={space.spaceId} />
          {space.changeRequestId && (
            <span class="badge badge-cr" data-testid="cr-badge">
              <Icon name="git-pull-request" size={12} />
              Change request
            </span>
          )}
        </>
      }
    >
      <SearchButton open={props.openPalette} />
      <Presence
        awareness={space.content.provider.awareness}
        pageTitle={(id) => (props.loaded ? space.model.entry(id)?.title : undefined)}
      />
      <ConnectionStatus docs={space.sessions} outbox={props.outbox} />
      <button
        type="button"
        class="icon-button"
        title="Keyboard shortcuts (Ctrl+/)"
        aria-label="Keyboard shortcuts"
        data-testid="show-shortcuts"
        onClick={() => showShortcutHelp()}
      >
        <Icon name="keyboard" />
      </button>
    </TopBar>
  );
}
