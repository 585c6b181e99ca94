// Compiles the sync server (sync-server/main.ts, the admin CLI sync-server/cli.ts, the markdown
// worker and the SAML signature worker) to plain JavaScript in out/server/, so `npm start` runs with plain `node` and never
// compiles TypeScript at start. The server itself is one CommonJS file, server.cjs, that
// out/server/main.js (sync-server/compiled-main.ts) runs through V8's code cache; the CLI, the
// workers and the install step are ES modules sharing chunks. Folio's code and the packages the
// server loads at every start are bundled; other packages stay imports of node_modules.
//
// `node scripts/build-server.mjs` builds unconditionally; scripts/start.mjs calls
// `ensureServerBuilt()`, which builds only when the output is missing or older than a source.
import console from 'node:console';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
/** Where the compiled server goes (out/ is not committed). */
export const SERVER_OUT_DIR = join(ROOT, 'out', 'server');
/** What the build wrote and from which sources: the staleness check reads it. */
const BUILD_INFO = 'build-info.json';
const BUILD_SCRIPT = fileURLToPath(import.meta.url);

/** The ES module entries (out/server/<name>.js). */
const ENTRIES = {
  main: 'sync-server/compiled-main.ts',
  cli: 'sync-server/cli.ts',
  'markdown-worker': 'sync-server/markdown/worker.ts',
  'saml-worker': 'sync-server/identity/saml-worker.ts',
  'integration-sandbox-worker': 'sync-server/integration-sandbox/worker.ts',
  prepare: 'sync-server/prepare.ts',
};

/** The server, one CommonJS file (compiled-main.ts runs it with a code cache). */
const SERVER_ENTRY = 'sync-server/main.ts';
export const SERVER_BUNDLE = 'server.cjs';
/** The bundle's own file URL, which its files' `import.meta.url` is made from (a CommonJS file has no import.meta). */
const CJS_BUNDLE_URL = '__folioBundleUrl';
const CJS_BANNER = `var ${CJS_BUNDLE_URL} = require('node:url').pathToFileURL(__filename).href;`;
/** The import() compiled-main.ts passes the bundle (a parameter of the function it wraps the bundle in). */
export const CJS_RUNTIME_IMPORT = '__folioImport';

/** A path relative to `from`, with forward slashes (a URL path). */
function urlPath(from, to) {
  const rel = relative(from, to).split(sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/**
 * Source files resolve paths next to themselves (`new URL('./migrations/', import.meta.url)`,
 * `../out/renderer`). In a bundle `import.meta.url` is the bundle's, so each of our files gets
 * its own source location back: the same relative paths work compiled and from the sources.
 * `bundleUrl` is the bundle's own URL: `import.meta.url` in an ES module; in the CommonJS server
 * bundle, a variable its banner sets (CommonJS has no import.meta).
 *
 * `runtimeImport`, for the CommonJS bundle: names the function that imports a package left in
 * node_modules when our code does so with import() (jose, nodemailer, ioredis…). compiled-main.ts
 * hands the bundle one of its own, since V8 loses a script's dynamic-import hook when the script's
 * code comes from the code cache (the import then throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
 */
function sourceTransformPlugin(outDir, { bundleUrl = 'import.meta.url', runtimeImport } = {}) {
  const packageImport = /\bimport\((['"])([^'"./][^'"]*)\1\)/g;
  return {
    name: 'folio-source-transform',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        let text = await readFile(args.path, 'utf8');
        if (runtimeImport)
          text = text.replace(packageImport, (call, quote, specifier) =>
            BOOT_PACKAGES.has(packageOf(specifier)) ? call : `${runtimeImport}(${quote}${specifier}${quote})`,
          );
        // compiled-main.ts only ever runs from out/server/: its paths are the output's own.
        if (!text.includes('import.meta.url') || args.path.endsWith(`${sep}compiled-main.ts`))
          return { contents: text, loader: 'ts' };
        const own = `new URL(${JSON.stringify(urlPath(outDir, args.path))}, ${bundleUrl}).href`;
        return { contents: text.replaceAll('import.meta.url', own), loader: 'ts' };
      });
    },
  };
}

/**
 * Packages bundled into the server rather than imported from node_modules at run time: those the
 * server loads at every start (test/unit/compiled-start.test.ts checks the list against the build),
 * and the packages they depend on. Node resolves, stats, reads, lexes (for an ES module importing
 * CommonJS) and wraps each file of a package on its own: for the ~400 CommonJS files and ~700
 * TypeBox modules the server loaded at start, that was ~250 ms of CPU per start; in the bundle it
 * is one parse. Packages the server loads only on some requests (PDF, SAML, OIDC, Redis, PostgreSQL,
 * mail, syntax highlighting) stay in node_modules: bundling them would not make the start faster.
 */
export const BOOT_PACKAGES = new Set([
  'typebox',
  'fastify',
  '@fastify/proxy-addr',
  '@fastify/static',
  '@fastify/swagger',
  'ajv',
  'ajv-formats',
  'cookie',
  'diff',
  'fractional-indexing',
  'ipaddr.js',
  'jse-eval',
  'lib0',
  'lru-cache',
  'prom-client',
  'rate-limiter-flexible',
  'ws',
  'y-protocols',
  'yjs',
]);

/**
 * Never bundled, even as a dependency of a bundled package, each for a reason of its own: they read
 * files or start threads relative to their own folder (PGlite's wasm and data, Swagger UI's static
 * assets, pino's transport workers, the parse pool's worker threads), or are optional native
 * add-ons `ws` tries to load.
 */
export const KEEP_EXTERNAL = new Set([
  '@electric-sql/pglite',
  '@fastify/swagger-ui',
  'pino',
  'thread-stream',
  'tinypool',
  'bufferutil',
  'utf-8-validate',
]);

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * Decides per bare import: bundled when Folio's code imports a boot package, or when a bundled
 * package imports anything but KEEP_EXTERNAL (esbuild then resolves it from the importing package's
 * folder, so a nested node_modules copy is the one bundled); otherwise left to Node at run time.
 */
function bundlePackagesPlugin() {
  return {
    name: 'folio-bundle-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.folioResolving || isBuiltin(args.path)) return undefined;
        const name = packageOf(args.path);
        const fromPackage = args.importer.includes(`${sep}node_modules${sep}`);
        const bundle = !KEEP_EXTERNAL.has(name) && (fromPackage || BOOT_PACKAGES.has(name));
        if (!bundle) return { path: args.path, external: true };
        return build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { folioResolving: true },
        });
      });
    },
  };
}

/**
 * Bundled CommonJS calls `require` for Node's built-in modules (and for KEEP_EXTERNAL packages); an
 * ES module has no `require`, so each output file makes its own, as Node would give CommonJS.
 */
const REQUIRE_BANNER =
  "import { createRequire as __folioCreateRequire } from 'node:module'; const require = __folioCreateRequire(import.meta.url);";

/** Writes a file by renaming a finished temporary one: a process starting meanwhile never reads half a file. */
async function writeAtomically(file, contents) {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, contents);
  await rename(tmp, file);
}

/**
 * Builds out/server/: server.cjs (the server), main.js (its code-cache loader), cli.js,
 * markdown-worker.js, saml-worker.js and prepare.js (+ chunks those share or import lazily). Returns the build's
 * duration in ms.
 */
export async function buildServer({ root = ROOT, outDir = SERVER_OUT_DIR } = {}) {
  const started = performance.now();
  // Taken before reading any source: one edited during the build counts as newer than the build.
  const builtAt = Date.now();
  const { build } = await import('esbuild');
  const pool = join(root, 'sync-server', 'markdown');
  const common = {
    absWorkingDir: root,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    // Class and function names as in the sources (error names, logs).
    keepNames: true,
    // No comments or indentation: less source text held in memory, and no non-ASCII character from a
    // comment (an em-dash) makes V8 keep a whole file as two-byte text (~1 MiB). Stack traces map
    // back through the source maps (NODE_OPTIONS=--enable-source-maps).
    minifyWhitespace: true,
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    // The parse pool loads this bundle in its worker threads instead of the tsx-loading worker-entry.mjs.
    define: {
      FOLIO_COMPILED_WORKER: JSON.stringify(urlPath(pool, join(outDir, 'markdown-worker.js'))),
      // The SAML verifier's threads (identity/saml-verifier.ts) load this one instead of saml-worker-entry.mjs.
      FOLIO_COMPILED_SAML_WORKER: JSON.stringify(
        urlPath(join(root, 'sync-server', 'identity'), join(outDir, 'saml-worker.js')),
      ),
      // The integration sandbox's threads (integration-sandbox/pool.ts) load this one instead of its worker-entry.mjs.
      FOLIO_COMPILED_SANDBOX_WORKER: JSON.stringify(
        urlPath(join(root, 'sync-server', 'integration-sandbox'), join(outDir, 'integration-sandbox-worker.js')),
      ),
    },
  };
  const [modules, server] = await Promise.all([
    build({
      ...common,
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)])),
      // Code splitting: what the CLI imports with import() is its own chunk, loaded when used.
      splitting: true,
      // Chunks sit beside the entries: every output file is the same distance from the sources.
      chunkNames: '[name]-[hash]',
      format: 'esm',
      banner: { js: REQUIRE_BANNER },
      plugins: [bundlePackagesPlugin(), sourceTransformPlugin(outDir)],
    }),
    // One file: V8 caches a script's compiled code, not a module graph's. What the server imports
    // with import() (PDF, sites, markdown, Redis…) is in it too, but runs only when first imported,
    // and the packages it imports load then; V8 compiles a function only when it first runs.
    build({
      ...common,
      entryPoints: { [SERVER_BUNDLE.replace(/\.cjs$/, '')]: join(root, SERVER_ENTRY) },
      outExtension: { '.js': '.cjs' },
      format: 'cjs',
      banner: { js: CJS_BANNER },
      plugins: [
        bundlePackagesPlugin(),
        sourceTransformPlugin(outDir, { bundleUrl: CJS_BUNDLE_URL, runtimeImport: CJS_RUNTIME_IMPORT }),
      ],
    }),
  ]);
  await mkdir(outDir, { recursive: true });
  // Chunks first, entries last: an entry never names a chunk that is not there yet.
  const entries = new Set(
    [...Object.keys(ENTRIES).map((e) => `${e}.js`), SERVER_BUNDLE].flatMap((f) => [
      join(outDir, f),
      join(outDir, `${f}.map`),
    ]),
  );
  const files = [...modules.outputFiles, ...server.outputFiles].sort(
    (a, b) => Number(entries.has(a.path)) - Number(entries.has(b.path)),
  );
  for (const f of files) await writeAtomically(f.path, f.contents);
  const inputs = buildInputs(root, [
    ...new Set([...Object.keys(modules.metafile.inputs), ...Object.keys(server.metafile.inputs)]),
  ]);
  const bootExternals = externalsAtStart(server.metafile);
  await writeAtomically(join(outDir, BUILD_INFO), JSON.stringify({ builtAt, inputs, bootExternals }, null, 1));
  await removeOldChunks(outDir, new Set(files.map((f) => f.path)));
  return performance.now() - started;
}

/**
 * The files a rebuild depends on: Folio's own sources, and for the bundled packages npm's record of
 * what is installed (node_modules/.package-lock.json, rewritten by every install or upgrade) rather
 * than their ~1,300 files, so the staleness check at each start stays a few hundred stats.
 */
function buildInputs(root, metafileInputs) {
  const ownSources = metafileInputs.filter((p) => !p.split(/[\\/]/).includes('node_modules'));
  const installed = join(root, 'node_modules', '.package-lock.json');
  return [...ownSources.map((p) => resolve(root, p)), ...(existsSync(installed) ? [installed] : [])];
}

/**
 * The packages the compiled server still imports from node_modules as it starts: those main.ts and
 * server.ts (which it imports at once) reach through static imports and requires. Recorded in
 * build-info.json; the compiled-start test checks they are all KEEP_EXTERNAL, so a package new to
 * the start path is bundled (BOOT_PACKAGES) or consciously kept out.
 */
function externalsAtStart(metafile) {
  const inputs = metafile.inputs;
  // main.ts imports server.ts with import() at once: both are the start path.
  const files = [SERVER_ENTRY, 'sync-server/server.ts'];
  const seen = new Set(files);
  const externals = new Set();
  for (const file of files)
    for (const i of inputs[file]?.imports ?? []) {
      if (i.kind === 'dynamic-import') continue;
      if (i.external) {
        // '<runtime>' is esbuild's own helper code, not a package.
        if (!isBuiltin(i.path) && !i.path.startsWith('<')) externals.add(packageOf(i.path));
      } else if (!seen.has(i.path)) {
        seen.add(i.path);
        files.push(i.path);
      }
    }
  return [...externals].sort();
}

/**
 * Chunks of earlier builds are left a day: a server started before a rebuild may still import one
 * lazily. Older ones are garbage.
 */
async function removeOldChunks(outDir, keep) {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await readdir(outDir)) {
    if (!/-[A-Z0-9]{8}\.js(\.map)?$/.test(name)) continue;
    const file = join(outDir, name);
    if (keep.has(file) || keep.has(file.replace(/\.map$/, ''))) continue;
    if ((await stat(file)).mtimeMs < dayAgo) await rm(file, { force: true });
  }
}

/**
 * Whether out/server must be (re)built, and why: no build yet, or a source it was built from (or
 * this script) changed since, or is gone. mtimes only: one stat per input (a few hundred files,
 * a few ms), no hashing.
 */
export function serverBuildDecision(outDir = SERVER_OUT_DIR) {
  const infoFile = join(outDir, BUILD_INFO);
  const outputs = [...Object.keys(ENTRIES).map((e) => `${e}.js`), SERVER_BUNDLE];
  if (!existsSync(infoFile) || !outputs.every((f) => existsSync(join(outDir, f)))) {
    return { build: true, reason: `${outDir} has no complete build` };
  }
  let info;
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8'));
  } catch {
    return { build: true, reason: `${infoFile} is unreadable` };
  }
  for (const input of [BUILD_SCRIPT, ...info.inputs]) {
    let mtime;
    try {
      mtime = statSync(input).mtimeMs;
    } catch {
      return { build: true, reason: `${relative(ROOT, input)} is gone` };
    }
    if (mtime > info.builtAt) return { build: true, reason: `${relative(ROOT, input)} changed since the last build` };
  }
  return { build: false, reason: 'up to date' };
}

/** Builds out/server when `serverBuildDecision` says so, saying what it does on stderr. */
export async function ensureServerBuilt(outDir = SERVER_OUT_DIR) {
  const decision = serverBuildDecision(outDir);
  if (!decision.build) return decision;
  console.error(`folio: compiling the server (${decision.reason})…`);
  const ms = await buildServer({ outDir });
  console.error(`folio: server compiled in ${(ms / 1000).toFixed(1)} s`);
  return decision;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outDir = process.argv[2] ? resolve(process.argv[2]) : SERVER_OUT_DIR;
  buildServer({ outDir }).then(
    (ms) =>
      console.log(`folio: server compiled to ${relative(ROOT, outDir) || dirname(outDir)} in ${Math.round(ms)} ms`),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
