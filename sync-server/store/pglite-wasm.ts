import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';

/**
 * PGlite's wasm module: read and compiled here, once per process, rather than
 * by PGlite. This file imports nothing heavy (not PGlite itself), so `npm
 * start` can begin the compile before it loads the rest of the server: of the
 * ~120 ms the read and the compile took after the imports, the read and V8's
 * up-front validation (~75 ms) still run on the main thread, and the rest on
 * V8's background thread while the main thread loads modules. PGlite's own loader also
 * kept the 8.7 MB file's bytes reachable from its instantiation closure for
 * the life of the database; a module compiled here lets them go, and a second
 * database in the process (the tests open hundreds) skips the compile.
 */
let pgliteWasm: Promise<WebAssembly.Module> | undefined;

export function compiledPgliteWasm(): Promise<WebAssembly.Module> {
  if (!pgliteWasm) {
    useBaselineWasmCompiler();
    // Next to PGlite's entry (resolved as CommonJS would: the compiled server is a CommonJS bundle).
    const file = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm');
    // Read in one go: an async read would wait for the main thread between its chunks, and at start
    // the main thread is busy loading modules; the compile itself runs on V8's background thread.
    // (A worker thread doing both, off the main thread, measured no faster on 2 cores.)
    try {
      pgliteWasm = WebAssembly.compile(readFileSync(file));
    } catch (err) {
      pgliteWasm = Promise.reject(err as Error);
    }
    // A failed read or compile is not kept: the next open tries again.
    pgliteWasm.catch(() => (pgliteWasm = undefined));
  }
  return pgliteWasm;
}

/**
 * Starts the compile and lets it run in the background (main.ts, before it
 * imports the server). A failure is not reported here: the open that awaits
 * the module tries again and reports it.
 */
export function prefetchPgliteWasm(): void {
  compiledPgliteWasm().catch(() => undefined);
}

/**
 * Compiles wasm with V8's baseline compiler only (Liftoff), set before PGlite's
 * 8.7 MB module is compiled. By default V8 also recompiles hot functions with
 * its optimizing tier in the background, and that second copy of the code was
 * ~35-55 MiB of the idle RSS, growing as more queries warm up. The footprint
 * benchmark's query mix (point reads, small write transactions) ran no slower:
 * its time goes to the wire protocol in JS, not to the wasm. The flag is
 * process-wide but PGlite is the only wasm Folio's server loads (shiki uses
 * its JavaScript engine).
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
