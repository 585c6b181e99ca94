import { SHORTCUTS, type ShortcutAction } from '../shortcuts';
import type { IconName } from '../ui/icons';
import { chooseTheme, currentTheme, THEME_CHOICES } from '../ui/theme';
import { toast } from '../ui/toast';
import { fold, queryTerms } from './snippet';

/**
 * The commands the palette runs: every keyboard-shortcut action (so a new
 * ShortcutAction shows up here by itself) plus the workspace's menu-only
 * ones (settings, theme, sign out, back to the spaces).
 */

/** One command of the palette. */
export interface PaletteCommand {
  id: string;
  label: string;
  /** Shortcut as written in SHORTCUTS ("Mod+Alt+N"), shown beside the label. */
  keys?: string;
  /** Other words that find it ("dark" finds the theme commands). */
  keywords?: string;
  icon: IconName;
  run(): void;
}

/** What the commands act on. */
export interface CommandTargets {
  run(action: ShortcutAction): void;
  openSettings(): void;
  signOut(): void;
  toPicker(): void;
  /** Switches the open page between live preview and markdown source (absent: no page open). */
  toggleSource?: () => void;
}

/** The icon of each shortcut action (actions added later get the generic command icon). */
const ACTION_ICONS: Partial<Record<ShortcutAction, IconName>> = {
  'new-page': 'file-plus',
  'new-change-request': 'git-pull-request',
  'toggle-preview': 'eye',
  comment: 'message',
  'upload-image': 'image',
  'show-shortcuts': 'keyboard',
};

const THEME_ICONS: Record<string, IconName> = { light: 'sun', dark: 'moon', system: 'monitor' };

/** Actions the palette does not list: opening the palette itself. */
const NOT_LISTED: readonly ShortcutAction[] = ['find-page'];

/** The palette's commands. */
export function paletteCommands(targets: CommandTargets): PaletteCommand[] {
  const shortcuts = SHORTCUTS.filter((s) => !NOT_LISTED.includes(s.action)).map((s): PaletteCommand => ({
    id: s.action,
    label: s.label,
    keys: s.keys,
    icon: ACTION_ICONS[s.action] ?? 'command',
    keywords: s.action === 'toggle-preview' ? 'preview read mode' : s.action.replace(/-/g, ' '),
    run: () => targets.run(s.action),
  }));
  const themes = THEME_CHOICES.map((choice): PaletteCommand => ({
    id: `theme-${choice.value}`,
    label: `Theme: ${choice.label}`,
    icon: THEME_ICONS[choice.value] ?? 'sun',
    keywords: `switch colour color appearance ${choice.value}${currentTheme() === choice.value ? ' current' : ''}`,
    run: () =>
      void chooseTheme(choice.value).catch((err: unknown) =>
        toast(`Could not save the theme: ${(err as Error).message}`, 'error'),
      ),
  }));
  const toggleSource = targets.toggleSource;
  const source: PaletteCommand[] = toggleSource
    ? [
        {
          id: 'toggle-source',
          label: 'Toggle markdown source',
          keys: 'Mod+Alt+S',
          keywords: 'source mode raw live preview',
          icon: 'code',
          run: toggleSource,
        },
      ]
    : [];
  return [
    ...shortcuts,
    ...source,
    ...themes,
    {
      id: 'open-settings',
      label: 'Go to settings',
      keywords: 'preferences accounts',
      icon: 'settings',
      run: () => targets.openSettings(),
    },
    {
      id: 'to-picker',
      label: 'Go to all spaces',
      keywords: 'switch space picker home',
      icon: 'home',
      run: () => targets.toPicker(),
    },
    {
      id: 'sign-out',
      label: 'Sign out',
      keywords: 'log out logout account',
      icon: 'log-out',
      run: () => targets.signOut(),
    },
  ];
}

/** The commands whose label or keywords contain every word of `query` (at a word start); all for an empty query. */
export function filterCommands(commands: readonly PaletteCommand[], query: string): PaletteCommand[] {
  // Each typed word, with its stem (queryTerms), must start a word of the label or keywords.
  const typed = query
    .trim()
    .split(/\s+/)
    .map((word) => queryTerms(word))
    .filter((terms) => terms.length > 0);
  if (typed.length === 0) return [...commands];
  return commands.filter((c) => {
    const words = fold(`${c.label} ${c.keywords ?? ''}`).match(/[\p{L}\p{N}]+/gu) ?? [];
    return typed.every((terms) => terms.some((t) => words.some((w) => w.startsWith(t))));
  });
}
