import type { BrowserWindow, Rectangle } from 'electron';
import type { WindowBounds } from '../shared/desktop-api';

/** The first window's size. */
export const DEFAULT_WINDOW_SIZE = { width: 1200, height: 800 } as const;

/** Smaller than this the page tree and the editor no longer fit side by side. */
export const MIN_WINDOW_SIZE = { width: 640, height: 480 } as const;

/** How much of the window's title bar must lie on a screen for a saved position to be reused. */
const MIN_VISIBLE = 64;

/**
 * Where to open the window: the saved bounds when they still fit the current screens, else a
 * default. A position on a screen that is gone (an unplugged monitor) is dropped, so the
 * window never opens out of reach; a size larger than every screen is shrunk.
 */
export function restoreBounds(saved: WindowBounds | undefined, workAreas: readonly Rectangle[]): WindowBounds {
  const largest = workAreas.reduce<Rectangle | undefined>(
    (best, area) => (!best || area.width * area.height > best.width * best.height ? area : best),
    undefined,
  );
  const clampSize = (value: number, min: number, max: number | undefined): number =>
    Math.max(min, max === undefined ? value : Math.min(value, max));
  const wanted = saved ?? DEFAULT_WINDOW_SIZE;
  const bounds: WindowBounds = {
    width: clampSize(wanted.width, MIN_WINDOW_SIZE.width, largest?.width),
    height: clampSize(wanted.height, MIN_WINDOW_SIZE.height, largest?.height),
  };
  if (saved?.x !== undefined && saved.y !== undefined) {
    const titleBar: Rectangle = { x: saved.x, y: saved.y, width: bounds.width, height: MIN_VISIBLE };
    if (workAreas.some((area) => overlap(area, titleBar) >= MIN_VISIBLE * MIN_VISIBLE)) {
      bounds.x = saved.x;
      bounds.y = saved.y;
    }
  }
  if (saved?.maximized) bounds.maximized = true;
  return bounds;
}

function overlap(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

/** The bounds to save: the un-maximized rectangle plus whether it is maximized. */
export function currentBounds(win: Pick<BrowserWindow, 'getNormalBounds' | 'isMaximized'>): WindowBounds {
  const { x, y, width, height } = win.getNormalBounds();
  const bounds: WindowBounds = { x, y, width, height };
  if (win.isMaximized()) bounds.maximized = true;
  return bounds;
}

/**
 * Saves the window's bounds shortly after it stops moving or resizing (one write per gesture,
 * not per pixel) and once more when it closes.
 */
export function trackWindowBounds(
  win: BrowserWindow,
  save: (bounds: WindowBounds) => Promise<void>,
  delayMs = 500,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const saveNow = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return;
    save(currentBounds(win)).catch((error: unknown) => console.error('Could not save the window bounds:', error));
  };
  const saveSoon = (): void => {
    clearTimeout(timer);
    timer = setTimeout(saveNow, delayMs);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('maximize', saveSoon);
  win.on('unmaximize', saveSoon);
  win.on('close', saveNow);
}
