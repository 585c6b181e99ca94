/**
 * `npm start`: builds the web app when this checkout has none (a fresh clone:
 * out/ is not committed), then starts the sync server. Without this the
 * server would answer /app/ with 503 until someone ran `npm run build`.
 *
 * Only a missing build triggers one — a stale build is the operator's call
 * (`npm run build`), so a restart never silently costs a rebuild.
 * `FOLIO_SKIP_WEB_BUILD=1` opts out (an API-only server).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_WEB_APP_DIR } from '../sync-server/web-app';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** Why the web app will (or will not) be built before the server starts. */
export type BuildDecision = { build: true; reason: string } | { build: false; reason: string };

/** Decides whether `npm start` builds the web app first: only when its entry page is missing. */
export function webAppBuildDecision(
  webAppDir: string,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): BuildDecision {
  if (argv.includes('--help') || argv.includes('-h')) return { build: false, reason: 'help only' };
  if (env.FOLIO_SKIP_WEB_BUILD === '1') return { build: false, reason: 'FOLIO_SKIP_WEB_BUILD=1' };
  if (existsSync(resolve(webAppDir, 'index.html'))) return { build: false, reason: 'already built' };
  return { build: true, reason: `${resolve(webAppDir, 'index.html')} is missing` };
}

/** Runs the project's build (electron-vite: the renderer and the desktop shell) and waits for it. */
export function buildWebApp(cwd = ROOT): Promise<void> {
  const bin = resolve(cwd, 'node_modules/.bin/electron-vite');
  return new Promise((done, fail) => {
    const child = spawn(bin, ['build'], { cwd, stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code) =>
      code === 0
        ? done()
        : fail(new Error(`electron-vite build exited with ${code}: run \`npm run build\` to see why`)),
    );
  });
}

async function main(): Promise<void> {
  const decision = webAppBuildDecision(DEFAULT_WEB_APP_DIR, process.argv.slice(2), process.env);
  if (decision.build) {
    console.log(`folio: building the web app first (${decision.reason})…`);
    const started = Date.now();
    await buildWebApp();
    console.log(`folio: web app built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  await import('../sync-server/main');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(`folio: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
