import { useState } from 'preact/hooks';
import { useApp } from '../../screens/context';
import { AsyncSection, EmptyState } from '../../ui/kit/async-section';
import { useResource } from '../../ui/kit/hooks';
import { Icon } from '../../ui/kit/icon';
import type { SiteDetails } from '../site-api';
import { StructureContextProvider, type StructureContext, type StructureDialog } from './context';
import { rootSiteSpaces, type SiteStructure } from './model';
import { SiteSpaceList } from './site-space-list';
import { StructureDialogs } from './structure-dialogs';
import { TopLevelList } from './top-level-list';
import { ActionError, useAction } from './use-action';

/** A site's structure, loaded from its store (kept on screen while a write reloads it). */
export function StructureEditor({ orgId, site }: { orgId: string; site: SiteDetails }) {
  const { stores } = useApp();
  const { state, retry } = useResource(stores.sites.structure, [orgId, site.id] as [string, string]);
  return (
    <AsyncSection state={state} what="the site's structure" retry={retry}>
      {(structure) => <StructureView orgId={orgId} site={site} structure={structure} />}
    </AsyncSection>
  );
}

function StructureView({ orgId, site, structure }: { orgId: string; site: SiteDetails; structure: SiteStructure }) {
  const action = useAction();
  const [dialog, setDialog] = useState<StructureDialog>();
  const canManage = site.permissions.create;
  const context: StructureContext = {
    orgId,
    siteId: site.id,
    structure,
    canManage,
    busy: action.busy,
    run: action.run,
    open: setDialog,
  };
  const hasSections = structure.sections.length > 0;
  const roots = rootSiteSpaces(structure);
  const empty = !hasSections && roots.length === 0;
  return (
    <StructureContextProvider value={context}>
      <section
        class="org-panel site-structure"
        aria-labelledby="site-structure-title"
        data-testid="structure-panel"
        aria-busy={action.busy}
      >
        <div class="org-panel-header">
          <h2 id="site-structure-title">{hasSections ? 'Sections' : 'Spaces'}</h2>
          {canManage && (
            <span class="site-toolbar">
              {!hasSections && !empty && (
                <button type="button" data-testid="add-space" onClick={() => setDialog({ kind: 'add-space' })}>
                  <Icon name="plus" />
                  Add space
                </button>
              )}
              {hasSections && (
                <button type="button" data-testid="new-group" onClick={() => setDialog({ kind: 'new-group' })}>
                  <Icon name="folder-plus" />
                  New group
                </button>
              )}
              <button
                type="button"
                class={hasSections ? 'primary' : undefined}
                data-testid="add-section"
                onClick={() => setDialog({ kind: 'add-section' })}
              >
                <Icon name="plus" />
                Add section
              </button>
            </span>
          )}
        </div>
        <p class="muted">
          {hasSections
            ? 'Sections are the tabs of the published site. The spaces in a section are its variants (versions, languages); readers start on the default ones.'
            : 'The spaces this site publishes. Add a section to organize the site in tabs: the first section gathers these spaces.'}
          {canManage && ' Drag a row, or use Alt+↑ / Alt+↓, to reorder.'}
        </p>
        {!canManage && (
          <p class="muted" data-testid="structure-read-only">
            You can see this structure; changing it needs the “create” role in the organization.
          </p>
        )}
        <ActionError error={action.error} onDismiss={action.clear} />
        {empty ? (
          <EmptyState
            message="This site publishes no space yet."
            action={
              canManage
                ? { label: 'Add a space', run: () => setDialog({ kind: 'add-space' }), testid: 'empty-add-space' }
                : undefined
            }
          />
        ) : hasSections ? (
          <TopLevelList />
        ) : (
          <SiteSpaceList siteSpaces={roots} />
        )}
      </section>
      <StructureDialogs dialog={dialog} onClose={() => setDialog(undefined)} />
    </StructureContextProvider>
  );
}
