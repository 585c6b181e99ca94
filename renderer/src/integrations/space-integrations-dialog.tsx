import { AppContextProvider, NavigationProvider, type AppContext } from '../screens/context';
import { Dialog, DialogActions, openDialog } from '../ui/kit/dialog';
import { InstalledHere } from './installed-here';
import './integrations.css';

/**
 * Opens a space's "Integrations…" (GitBook's space Integrations menu): what runs on the space and,
 * for its admins, the organization's integrations to install there. Resolves when it closes.
 */
export function openSpaceIntegrationsDialog(
  app: AppContext,
  props: { orgId: string; spaceId: string; title?: string; manage: boolean },
) {
  // The dialog lives outside the screen's tree: it gets the app's context again, for its links.
  return openDialog<void>((close) => (
    <NavigationProvider.Provider value={app.nav}>
      <AppContextProvider.Provider value={app}>
        <Dialog title="Integrations" onClose={() => close()} testid="space-integrations-dialog" class="int-dialog">
          <p class="muted">
            Integrations running on <strong>{props.title || 'this space'}</strong>.
          </p>
          <InstalledHere
            target={{ orgId: props.orgId, kind: 'space', id: props.spaceId }}
            manage={props.manage}
            close={() => close()}
          />
          <DialogActions>
            <button type="button" onClick={() => close()} data-testid="space-integrations-close">
              Close
            </button>
          </DialogActions>
        </Dialog>
      </AppContextProvider.Provider>
    </NavigationProvider.Provider>
  ));
}
