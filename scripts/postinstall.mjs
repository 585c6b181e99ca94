// `npm install` and `npm ci` run this last: compiles the server (scripts/build-server.mjs) and makes
// the embedded database's template (sync-server/prepare.ts), so the first `npm start` answers in
// about two seconds instead of spending its first seconds on both. A failure here is reported and
// does not fail the install: `npm start` does both itself when they are missing.
import console from 'node:console';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { SERVER_OUT_DIR, ensureServerBuilt } from './build-server.mjs';

if (process.env.FOLIO_SKIP_POSTINSTALL === '1') process.exit(0);
try {
  await ensureServerBuilt();
  await import(pathToFileURL(join(SERVER_OUT_DIR, 'prepare.js')).href);
} catch (err) {
  console.warn(
    `folio: could not prepare the server now (${err instanceof Error ? err.message : String(err)}); npm start will`,
  );
}
