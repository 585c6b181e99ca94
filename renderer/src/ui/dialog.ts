/** The app's dialogs live in the component library (kit/dialog.tsx); this path stays for callers that import it. */
export { confirmDialog, promptDialog } from './kit/dialog';
