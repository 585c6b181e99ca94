import { contextBridge } from 'electron';

/** The typed API the renderer may use; it has a browser fallback in renderer/src/platform.ts. */
const api = {
  platform: 'desktop' as const,
  versions: { electron: process.versions.electron ?? '', chrome: process.versions.chrome ?? '' },
};

export type PreloadApi = typeof api;

contextBridge.exposeInMainWorld('folio', api);
