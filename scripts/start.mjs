// `npm start`: plain `node`, no TypeScript loader. Builds the web app when this checkout has none
// (a fresh clone: out/ is not committed), compiles the server to out/server/ when that is missing
// or older than its sources (scripts/build-server.mjs), then runs the compiled server.
//
// Only a missing web app triggers its build — a stale one is the operator's call (`npm run build`),
// so a restart never silently costs a rebuild. `FOLIO_SKIP_WEB_BUILD=1` opts out (an API-only
// server). The server's own compile is cheap (under a second) and always kept current.
//
// package.json runs this with `node --v8-pool-size=1`: V8's background pool (concurrent GC
// marking, compile and WASM tier-up jobs) then has one thread instead of four, ~5–9 MiB less idle
// RSS and no REST cost measured on 2 cores. And with `--max-semi-space-size=2` (MiB): V8's young
// generation grows to 16 MiB semi-spaces by default and keeps them committed once grown (~27 MiB
// of the idle RSS, measured with v8.getHeapSpaceStatistics); a request's garbage is a few kB and dies
// young, so 2 MiB semi-spaces scavenge more often but each scavenge is as cheap: idle RSS went from
// ~160 to ~141 MiB, the fan-out burst's peak from ~175 to ~149 MiB, and neither the REST rates nor
// the start time moved beyond their run-to-run noise (`npm run bench -- summary`).
// Both are Node's own options, read once at process start: `v8.setFlagsFromString` here would be
// too late (the pool and the heap already exist), hence the command line.
//
// And glibc's allocator, set in the environment (read once, when the process starts), which this
// script does itself (`serverEnvironment` below) rather than package.json, whose `NAME=value cmd`
// prefix is POSIX shell syntax that cmd.exe (npm's shell on Windows) cannot run:
// MALLOC_ARENA_MAX=1 keeps one malloc arena instead of one per thread, and
// MALLOC_MMAP_THRESHOLD_=131072 keeps every allocation of 128 kB or more in mmap, given back to the
// system when freed (by default the threshold rises to the largest block freed, so later big buffers
// come from the arenas and stay resident). Node's threads (V8's pool, libuv's file system workers)
// each got an arena that kept what they had once allocated: with both settings the idle RSS on
// PGlite went from ~141 to ~135 MiB. The server allocates little through malloc from several threads
// at once (V8 has its own heap), so one arena costs no contention measured in the REST or fan-out
// benchmarks.
import { spawn } from 'node:child_process';
import console from 'node:console';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ROOT, SERVER_OUT_DIR, ensureServerBuilt } from './build-server.mjs';

/** Where the server looks for the web app (sync-server/web-app.ts, DEFAULT_WEB_APP_DIR). */
export const WEB_APP_DIR = join(ROOT, 'out', 'renderer');

/** Decides whether `npm start` builds the web app first: only when its entry page is missing. */
export function webAppBuildDecision(webAppDir, argv, env) {
  if (argv.includes('--help') || argv.includes('-h')) return { build: false, reason: 'help only' };
  if (env.FOLIO_SKIP_WEB_BUILD === '1') return { build: false, reason: 'FOLIO_SKIP_WEB_BUILD=1' };
  if (existsSync(resolve(webAppDir, 'index.html'))) return { build: false, reason: 'already built' };
  return { build: true, reason: `${resolve(webAppDir, 'index.html')} is missing` };
}

/** glibc's malloc settings of the server process (why: the comment at the top of this file). */
export const MALLOC_ENV = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '131072' };

/**
 * What the server's environment gets on top of the caller's: the malloc settings, on Linux (glibc),
 * when this Node can start the server with them without a second process, i.e. replace itself with
 * `process.execve` (Node 22.15 and later). On Node 20 a wrapper process would cost ~39 MiB to save
 * ~6, so the server runs without them there. Settings the caller already made are kept.
 */
export function serverEnvironment(env, platform = process.platform, canExec = typeof process.execve === 'function') {
  if (platform !== 'linux' || !canExec) return {};
  const add = {};
  for (const [name, value] of Object.entries(MALLOC_ENV)) if (env[name] === undefined) add[name] = value;
  return add;
}

/** Whether the build prints its own output: only when asked (`--verbose`, FOLIO_VERBOSE_BUILD=1). */
export function verboseBuild(argv, env) {
  return argv.includes('--verbose') || env.FOLIO_VERBOSE_BUILD === '1';
}

/**
 * Runs the project's build (electron-vite: the renderer and the desktop shell) and waits for it.
 * Its output (vite lists every chunk, ~130 lines) is kept back and shown only when the build
 * fails (its last lines, where the error is), or as it comes with `verbose`.
 */
export function buildWebApp(cwd = ROOT, verbose = false) {
  const bin = resolve(cwd, 'node_modules/.bin/electron-vite');
  return new Promise((done, fail) => {
    const child = spawn(bin, ['build'], { cwd, stdio: verbose ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      // The tail is what explains a failure; a runaway build must not fill the memory.
      output = (output + chunk.toString()).slice(-64 * 1024);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('error', fail);
    child.on('exit', (code) => {
      if (code === 0) return done();
      const tail = output.trimEnd().split('\n').slice(-40).join('\n');
      fail(
        new Error(
          `electron-vite build exited with ${code}${tail ? `; its last lines:\n${tail}\n` : ''}` +
            '(`npm run build` shows all of it)',
        ),
      );
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const extra = serverEnvironment(process.env);
  if (Object.keys(extra).length > 0) {
    // The same command again, in this process, with the malloc settings glibc reads at its start.
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
      ...process.env,
      ...extra,
    });
  }
  // The server's own flags parser does not know --verbose.
  const serverArgs = args.filter((a) => a !== '--verbose');
  process.argv.splice(2, process.argv.length - 2, ...serverArgs);
  const decision = webAppBuildDecision(WEB_APP_DIR, serverArgs, process.env);
  if (decision.build) {
    console.log(`folio: building the web app first (${decision.reason})…`);
    const started = Date.now();
    await buildWebApp(ROOT, verboseBuild(args, process.env));
    console.log(`folio: web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await ensureServerBuilt();
  await import(pathToFileURL(join(SERVER_OUT_DIR, 'main.js')).href);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().catch((err) => {
    console.error(`folio: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
