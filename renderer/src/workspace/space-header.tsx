import { useGitSyncAction } from '../git/use-git-sync-action';
import { useImportAction } from '../import/use-import-action';
import { useIntegrationsAction } from '../integrations/use-integrations-action';
import { useTranslateAction } from '../translations/use-translate-action';
import { MenuButton, type MenuItem } from '../ui/kit/menu';

/**
 * The top of the page tree: the space's title and its actions ("Rename space…"). The title is the
 * store's, so a rename shows here, in the top bar and in the window title at once. "Import…" is
 * there only for callers who may edit the space; "Git sync…" for those who may sync it, and read-only
 * for others when the space has a Git sync; "Translate…" likewise for those who may manage translations,
 * and read-only for others when the space has translations.
 */
export function SpaceHeader(props: {
  title: string | undefined;
  rename: () => void;
  spaceId: string;
  changeRequestId: string | undefined;
}) {
  const importContent = useImportAction(props.spaceId, props.changeRequestId);
  const gitSync = useGitSyncAction(props.spaceId);
  const translate = useTranslateAction(props.spaceId);
  const integrations = useIntegrationsAction(props.spaceId);
  return (
    <div class="tree-space">
      <span class="tree-space-title" data-testid="tree-space-title" title={props.title}>
        {props.title ?? 'Space'}
      </span>
      <MenuButton
        label="Space actions"
        testid="space-actions"
        class="icon-button tree-space-menu"
        items={() => [
          { label: 'Rename space…', icon: 'pencil', testid: 'action-rename-space', run: props.rename },
          ...(importContent
            ? [{ label: 'Import…', icon: 'upload', testid: 'action-import', run: importContent } satisfies MenuItem]
            : []),
          ...(gitSync
            ? [{ label: 'Git sync…', icon: 'git-compare', testid: 'action-git-sync', run: gitSync } satisfies MenuItem]
            : []),
          ...(translate
            ? [{ label: 'Translate…', icon: 'globe', testid: 'action-translate', run: translate } satisfies MenuItem]
            : []),
          ...(integrations
            ? [
                {
                  label: 'Integrations…',
                  icon: 'puzzle',
                  testid: 'action-integrations',
                  run: integrations,
                } satisfies MenuItem,
              ]
            : []),
        ]}
      />
    </div>
  );
}
