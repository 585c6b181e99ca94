import type { ShortcutAction } from '../shortcuts';

/**
 * What the open workspace runs for shortcuts and desktop menu commands: set by the space screen
 * while one is open, read by the app's shortcut handler.
 */
export const workspaceActions: { run?: (action: ShortcutAction) => void } = {};
