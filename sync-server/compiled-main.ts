import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { useBaselineWasmCompiler } from './store/pglite-wasm';

/**
 * The compiled server's entry (`npm start` runs out/server/main.js): runs the server, bundled as one
 * CommonJS file (server.cjs, from main.ts), through V8's code cache. Node 20 keeps no code cache
 * for ES modules, so each start parsed and compiled the server's code again: with the cache, V8
 * reads back the compiled functions of the previous start instead (~40-90 ms of a ~1.1 s start
 * here, measured alternating with the ES module build).
 *
 * The cache is written by a start that had none (or one V8 refused), a few seconds in or as it
 * exits, if sooner: by then the functions the start and the first requests need are compiled. It
 * sits beside the bundle, named after the bundle's size and time, so a rebuilt bundle never reads
 * another's cache (V8 itself only compares the source's length). A folder the server cannot write
 * to just means no cache.
 */

/** This file's own folder, out/server/ (the build leaves this file's import.meta.url as the output's). */
const OUT_DIR = dirname(fileURLToPath(import.meta.url));
const BUNDLE = join(OUT_DIR, 'server.cjs');
/** How long after start the cache is made: the start and the first requests have compiled by then. */
const WRITE_AFTER_MS = 5_000;

// V8 accepts a cache only under the flags it was made with. PGlite's wasm compile sets a V8 flag
// (store/pglite-wasm.ts), after this script is compiled; set here first, the flags are the same
// when the cache is made and when the next start reads it.
useBaselineWasmCompiler();

const bundle = statSync(BUNDLE);
const cacheFile = `${BUNDLE}.${bundle.size}-${Math.round(bundle.mtimeMs)}.cache`;
/** The name the bundle calls its import() by (scripts/build-server.mjs, CJS_RUNTIME_IMPORT). */
const RUNTIME_IMPORT = '__folioImport';
/** The import() the bundle calls for the packages it imports at run time. */
const runtimeImport = (specifier: string): Promise<unknown> => import(specifier);

if (process.sourceMapsEnabled) runForDebugging();
else runWithCodeCache();

/**
 * With --enable-source-maps (NODE_OPTIONS), the bundle is required as any CommonJS file: Node 20
 * maps stack traces back to the sources only for what its own loaders load, never for a vm script.
 * So a start compiles it as before the cache, and its import() is a global.
 */
function runForDebugging(): void {
  Object.assign(globalThis, { [RUNTIME_IMPORT]: runtimeImport });
  createRequire(import.meta.url)(BUNDLE);
}

function runWithCodeCache(): void {
  const { script, makeCache } = compileBundle();
  const wrapper = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
    importAtRunTime: typeof runtimeImport,
  ) => void;
  const bundleModule = new Module(BUNDLE);
  bundleModule.filename = BUNDLE;
  wrapper.call(
    bundleModule.exports,
    bundleModule.exports,
    createRequire(BUNDLE),
    bundleModule,
    BUNDLE,
    OUT_DIR,
    runtimeImport,
  );
  if (!makeCache) return;
  // Whichever comes first: a few seconds in, or the process exiting (a stop before then; the
  // write is synchronous, as an exit handler must be).
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    writeCodeCache(script);
  };
  const timer = setTimeout(write, WRITE_AFTER_MS).unref();
  process.once('exit', () => {
    clearTimeout(timer);
    write();
  });
}

/**
 * The bundle as a script, from the cache when there is one V8 accepts. The cache's bytes are read
 * here, so they are garbage once compiled (V8 keeps what it took from them): 2-3 MB the process
 * need not hold.
 */
function compileBundle(): { script: Script; makeCache: boolean } {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // esbuild writes ASCII only (other characters are escaped), so latin1 reads it without UTF-8 decoding.
  const source = readFileSync(BUNDLE, 'latin1');
  // Wrapped as Node wraps a CommonJS module, plus the import() the bundle uses for the packages it
  // imports at run time (scripts/build-server.mjs, CJS_RUNTIME_IMPORT): a script's own import() stops
  // working when its code comes from the cache, this module's does not.
  const wrapped = `(function (exports, require, module, __filename, __dirname, ${RUNTIME_IMPORT}) {${source}\n})`;
  const script = new Script(wrapped, { filename: BUNDLE, cachedData });
  return { script, makeCache: !cachedData || script.cachedDataRejected === true };
}

/** Writes this start's code cache (by a rename: a start reading meanwhile never sees half a file) and drops older ones. */
function writeCodeCache(script: Script): void {
  try {
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
    const prefix = `${basename(BUNDLE)}.`;
    for (const name of readdirSync(OUT_DIR))
      if (name.startsWith(prefix) && name.endsWith('.cache') && join(OUT_DIR, name) !== cacheFile)
        rmSync(join(OUT_DIR, name), { force: true });
  } catch {
    // A read-only install: every start compiles, as without a cache.
  }
}
