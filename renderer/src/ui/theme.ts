import { signal, type ReadonlySignal } from '@preact/signals';
import { platform, type Settings } from '../platform';
import { THEMES } from '../../../shared/desktop-api';

/**
 * The colour theme: 'light' or 'dark' as chosen, or 'system' to follow the
 * OS (prefers-color-scheme). It is applied as `data-theme` on <html>, which
 * selects the CSS variables in styles.css, so a change shows at once without
 * re-rendering any view.
 */

/** A theme the user may choose. */
export type Theme = NonNullable<Settings['theme']>;

/** The themes, in the order the settings view offers them, with their labels. */
export const THEME_CHOICES: readonly { value: Theme; label: string }[] = THEMES.map((value) => ({
  value,
  label: value === 'system' ? 'Same as the system' : value === 'light' ? 'Light' : 'Dark',
}));

const shown = signal<Theme>('system');

/**
 * The document's theme as a signal: the settings' select and the command palette's theme commands
 * change it from different places, and whatever shows it follows either.
 */
export const documentTheme: ReadonlySignal<Theme> = shown;

/** Applies `theme` to the document (undefined: 'system'). */
export function applyTheme(theme: Theme | undefined, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme ?? 'system';
  if (typeof document !== 'undefined' && root === document.documentElement) shown.value = currentTheme(root);
}

/** The theme shown now. */
export function currentTheme(root: HTMLElement = document.documentElement): Theme {
  const value = root.dataset.theme;
  return (THEMES as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
}

/** Applies the saved theme (before the first view renders, so the window never flashes the wrong colours). */
export async function restoreTheme(): Promise<void> {
  try {
    applyTheme((await platform().settings.get()).theme);
  } catch {
    applyTheme('system'); // Unreadable settings: the OS's choice is the least surprising.
  }
}

/** Applies `theme` at once and saves it; if saving fails the previous theme comes back and the error is rethrown. */
export async function chooseTheme(theme: Theme): Promise<void> {
  const previous = currentTheme();
  applyTheme(theme);
  try {
    await platform().settings.update({ theme });
  } catch (err) {
    applyTheme(previous);
    throw err;
  }
}
