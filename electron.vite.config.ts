import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';

/**
 * Builds the three parts of the desktop app into out/: the main process and
 * the preload (both in main/), and the renderer (renderer/, also served by the
 * sync server as a web app).
 */
export default defineConfig({
  main: {
    // Dependencies (lowdb) are bundled into out/main, so the packaged app ships no node_modules
    // (electron-builder.yml excludes them; the server's dependencies stay out of the installer).
    build: { outDir: 'out/main', externalizeDeps: false, lib: { entry: resolve(__dirname, 'main/index.ts') } },
  },
  preload: {
    // Sandboxed preloads run as classic scripts: CommonJS, not ESM, and may require only
    // 'electron', so everything else (the channel names, the shared validators) is bundled.
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      lib: { entry: resolve(__dirname, 'main/preload.ts') },
      rollupOptions: { output: { format: 'cjs', entryFileNames: 'preload.cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    // Relative asset URLs: the one build loads from file:// (Electron), under /app/ (the sync server) and from any static server.
    base: './',
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // Served over the network as a web app too: ship it minified (electron-vite leaves it unminified by default).
      minify: true,
      rollupOptions: { input: resolve(__dirname, 'renderer/index.html') },
    },
  },
});
