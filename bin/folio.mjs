#!/usr/bin/env node
// `npx folio <command>` and `npm run folio -- <command>`: the admin CLI (sync-server/cli.ts), run
// compiled with plain `node` (scripts/build-server.mjs compiles it when out/server is missing or
// older than the sources), in this process, with the caller's arguments, stdio and exit code.
import console from 'node:console';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { SERVER_OUT_DIR, ensureServerBuilt } from '../scripts/build-server.mjs';

try {
  await ensureServerBuilt();
  await import(pathToFileURL(join(SERVER_OUT_DIR, 'cli.js')).href);
} catch (err) {
  console.error(`folio: cannot start the CLI: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
