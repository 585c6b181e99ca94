/** The preload API in the desktop app, or its browser fallback when the renderer runs as a web app. */
export interface PlatformApi {
  platform: 'desktop' | 'web';
}

export function platform(): PlatformApi {
  const fromPreload = (globalThis as { folio?: PlatformApi }).folio;
  return fromPreload ?? { platform: 'web' };
}
