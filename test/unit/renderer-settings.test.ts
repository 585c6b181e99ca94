import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute } from '../../renderer/src/routes';
import { applyTheme, currentTheme, THEME_CHOICES } from '../../renderer/src/ui/theme';
import { THEMES } from '../../shared/desktop-api';

describe('settings routes', () => {
  it('round-trips the settings and sign-in views through the hash', () => {
    for (const route of [{ view: 'settings' as const }, { view: 'sign-in' as const }])
      expect(parseRoute(formatRoute(route))).toEqual(route);
    expect(formatRoute({ view: 'settings' })).toBe('#/settings');
    expect(parseRoute('#/settings/')).toEqual({ view: 'settings' });
    expect(parseRoute('#/settingsx')).toEqual({ view: 'picker' });
  });
});

describe('theme', () => {
  // The theme lives in a data attribute: an element's dataset is all applyTheme touches.
  const root = () => ({ dataset: {} as DOMStringMap }) as HTMLElement;

  it('offers every theme of the settings contract, system first', () => {
    expect(THEME_CHOICES.map((c) => c.value)).toEqual([...THEMES]);
    expect(THEME_CHOICES[0]!.value).toBe('system');
  });

  it('applies a theme as data-theme, unset meaning system', () => {
    const el = root();
    expect(currentTheme(el)).toBe('system');
    applyTheme('dark', el);
    expect(el.dataset.theme).toBe('dark');
    expect(currentTheme(el)).toBe('dark');
    applyTheme(undefined, el);
    expect(el.dataset.theme).toBe('system');
    el.dataset.theme = 'neon';
    expect(currentTheme(el)).toBe('system');
  });
});
