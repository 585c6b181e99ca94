import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The repository root (where `sync-server/cli.ts` is run from). */
export const ROOT = join(import.meta.dirname, '..', '..');
const TSX = createRequire(import.meta.url).resolve('tsx/cli');

/** What a finished child process printed and its exit code. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: the data dir set, nothing inherited that selects another database or admin token. */
export function childEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FOLIO_DATA_DIR: dataDir,
    FOLIO_LOG_LEVEL: 'silent',
    FOLIO_PORT: '0',
  };
  delete env.FOLIO_DATABASE_URL;
  delete env.FOLIO_ADMIN_TOKEN;
  return env;
}

/** Runs `node <script…> <args…>` in the repository root with `childEnv(dataDir)` until it exits. */
export function run(script: string[], args: string[], dataDir: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...script, ...args], { cwd: ROOT, env: childEnv(dataDir) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `tsx sync-server/cli.ts …` (what `npm run folio --` runs) on the PGlite data folder `dataDir`. */
export const folio = (dataDir: string, ...args: string[]) => run([TSX, 'sync-server/cli.ts'], args, dataDir);
