import { MenuButton } from '../ui/kit/menu';

/**
 * The top of the page tree: the space's title and its actions ("Rename space…"). The title is the
 * store's, so a rename shows here, in the top bar and in the window title at once.
 */
export function SpaceHeader(props: { title: string | undefined; rename: () => void }) {
  return (
    <div class="tree-space">
      <span class="tree-space-title" data-testid="tree-space-title" title={props.title}>
        {props.title ?? 'Space'}
      </span>
      <MenuButton
        label="Space actions"
        testid="space-actions"
        class="icon-button tree-space-menu"
        items={() => [{ label: 'Rename space…', icon: 'pencil', testid: 'action-rename-space', run: props.rename }]}
      />
    </div>
  );
}
