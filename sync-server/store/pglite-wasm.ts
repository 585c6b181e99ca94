import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

/**
 * PGlite's wasm module: read and compiled here, once per process (per thread:
 * the embedded database's thread compiles its own), rather than by PGlite.
 * PGlite's own loader kept the 8.7 MB file's bytes reachable from its
 * instantiation closure for the life of the database; a module compiled here
 * lets them go, and a second database in the process (the tests open
 * hundreds in memory) skips the compile.
 */
let pgliteWasm: Promise<WebAssembly.Module> | undefined;

export function compiledPgliteWasm(): Promise<WebAssembly.Module> {
  if (!pgliteWasm) {
    useBaselineWasmCompiler();
    const file = new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite'));
    // Read in one go: the thread has nothing else to do meanwhile, and an async read would wait for
    // it between chunks. Most of the compile runs on V8's background thread.
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
 * Compiles wasm with V8's baseline compiler only (Liftoff), set before PGlite's
 * 8.7 MB module is compiled. By default V8 also recompiles hot functions with
 * its optimizing tier in the background, and that second copy of the code was
 * ~35-55 MiB of the idle RSS, growing as more queries warm up. The footprint
 * benchmark's query mix (point reads, small write transactions) ran no slower:
 * its time goes to the wire protocol in JS, not to the wasm. The flag is
 * process-wide but PGlite is the only wasm Folio's server loads (shiki uses
 * its JavaScript engine).
 */
function useBaselineWasmCompiler(): void {
  setFlagsFromString('--liftoff-only');
}
