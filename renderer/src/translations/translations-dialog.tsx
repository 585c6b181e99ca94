import { useRef, useState } from 'preact/hooks';
import { AppContextProvider, NavigationProvider, type AppContext } from '../screens/context';
import { confirmDialog, Dialog, DialogActions, openDialog } from '../ui/kit/dialog';
import { Tabs } from '../ui/kit/tabs';
import { GlossaryEditor } from './glossary-editor';
import { TranslationsPanel } from './translations-panel';
import type { SpaceForTranslation } from './use-translate-action';
import '../ui/kit/underline-tabs.css';
import './translations.css';

/** The space the dialog is about, its organization known. */
export type TranslatedSpace = SpaceForTranslation & { organization: string };

/**
 * Opens "Translate…" of a space. `manage` (the caller may add languages: mayAddTranslation) gives
 * the language picker and the glossary's editing; each translation's own `permissions.edit` gives
 * its Run now, instructions and Delete. Resolves when the dialog closes (a run goes on on the server).
 */
export function openTranslationsDialog(app: AppContext, props: { space: TranslatedSpace; manage: boolean }) {
  // The dialog lives outside the screen's tree: it gets the app's context again, for its links.
  return openDialog<void>((close) => (
    <NavigationProvider.Provider value={app.nav}>
      <AppContextProvider.Provider value={app}>
        <TranslationsDialog space={props.space} manage={props.manage} onClose={() => close()} />
      </AppContextProvider.Provider>
    </NavigationProvider.Provider>
  ));
}

type Tab = 'languages' | 'glossary';

/**
 * The translations of a space, as GitBook's Translations panel: "Languages" (each translation, its
 * latest run followed while it runs, and "Add a language") and "Glossary" (the organization's terms
 * that every translation keeps). Both panels stay mounted, so a glossary being edited survives a
 * look at the languages; closing with unsaved glossary changes asks first.
 */
export function TranslationsDialog(props: { space: TranslatedSpace; manage: boolean; onClose: () => void }) {
  const { space, manage } = props;
  const [tab, setTab] = useState<Tab>('languages');
  // The glossary loads when first shown, then stays mounted.
  const [glossaryShown, setGlossaryShown] = useState(false);
  const select = (id: Tab) => {
    setTab(id);
    if (id === 'glossary') setGlossaryShown(true);
  };
  const glossaryDirty = useRef(false);
  const close = async () => {
    if (glossaryDirty.current && !(await confirmDialog('Discard the changes to the glossary?', 'Discard'))) return;
    props.onClose();
  };
  const panel = (id: Tab) => ({
    role: 'tabpanel' as const,
    id: `translations-${id}`,
    'aria-labelledby': `translations-tab-${id}`,
    hidden: tab !== id,
    class: 'tr-tab-panel',
  });
  return (
    <Dialog title="Translations" onClose={() => void close()} testid="translations-dialog" class="translations-dialog">
      <p class="tr-intro">
        Keep copies of <strong>{space.title || 'this space'}</strong> in other languages: each run translates the pages
        that changed since the last one into the translated space.
      </p>
      <Tabs<Tab>
        label="Translations"
        class="underline-tabs tr-tabs"
        panelPrefix="translations"
        active={tab}
        onSelect={select}
        items={[
          { id: 'languages', label: 'Languages', testid: 'translations-tab-languages' },
          { id: 'glossary', label: 'Glossary', testid: 'translations-tab-glossary' },
        ]}
      />
      <div {...panel('languages')}>
        <TranslationsPanel space={space} manage={manage} close={props.onClose} />
      </div>
      <div {...panel('glossary')}>
        {glossaryShown && (
          <GlossaryEditor
            orgId={space.organization}
            spaceId={space.id}
            sourceLanguage={space.language}
            manage={manage}
            onDirty={(dirty) => (glossaryDirty.current = dirty)}
          />
        )}
      </div>
      <DialogActions>
        <button type="button" data-testid="translations-close" onClick={() => void close()}>
          Close
        </button>
      </DialogActions>
    </Dialog>
  );
}
