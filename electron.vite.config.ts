import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

/**
 * Builds the three parts of the desktop app into out/: the main process and
 * the preload (both in main/), and the renderer (renderer/, also served by the
 * sync server as a web app).
 */
export default defineConfig({
  main: {
    build: { outDir: 'out/main', lib: { entry: resolve(__dirname, 'main/index.ts') } },
  },
  preload: {
    // Sandboxed preloads run as classic scripts: CommonJS, not ESM.
    build: {
      outDir: 'out/preload',
      lib: { entry: resolve(__dirname, 'main/preload.ts') },
      rollupOptions: { output: { format: 'cjs', entryFileNames: 'preload.cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: { outDir: resolve(__dirname, 'out/renderer'), rollupOptions: { input: resolve(__dirname, 'renderer/index.html') } },
  },
});
