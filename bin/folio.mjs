#!/usr/bin/env node
// `npx folio <command>`: runs the admin CLI (sync-server/cli.ts) with tsx,
// with the caller's arguments, stdio and environment, and its exit code.
import { spawn } from 'node:child_process';
import console from 'node:console';
import { createRequire } from 'node:module';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const require = createRequire(import.meta.url);
const cli = fileURLToPath(new URL('../sync-server/cli.ts', import.meta.url));

// tsx as a loader in the child itself (not tsx's CLI, whose signal relay SIGKILLs a slow child).
const child = spawn(process.execPath, ['--import', require.resolve('tsx'), cli, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
// Let the child handle Ctrl-C itself; the wrapper only waits for it.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
child.on('error', (err) => {
  console.error(`folio: cannot start the CLI: ${err.message}`);
  process.exitCode = 1;
});
