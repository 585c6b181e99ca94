import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ensureServerBuilt } from '../../scripts/build-server.mjs';
import { processApi } from './process-crash';
import { startServerProcess, type ServerProcess } from './server-process';

/**
 * The frame of a test file that kills the compiled server (kill -9) and starts it again on the same
 * data folder: the peer the killed work waits on (a held Git server, source or engine) started once
 * and closed at the end, the server built once, the server started last stopped after each test,
 * and every data folder removed at the end.
 */
export function restartSuite(options: {
  token: string;
  /** Prefix of the data folders' names (in the system's temporary folder). */
  folder: string;
  peer: () => Promise<{ close(): Promise<void> }>;
  /** More environment of the server, read when it starts (the peer is up by then). */
  env?: () => Record<string, string>;
}) {
  const dirs: string[] = [];
  let peer: { close(): Promise<void> } | undefined;
  let last: ServerProcess | undefined;

  beforeAll(async () => {
    peer = await options.peer();
    await ensureServerBuilt();
  }, 120_000);
  afterEach(async () => {
    await last?.stop();
    last = undefined;
  });
  afterAll(async () => {
    await peer?.close();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  return {
    api: processApi(options.token),
    /** A fresh data folder, removed after the file's tests. */
    async dataDir(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), options.folder));
      dirs.push(dir);
      return dir;
    },
    /** The compiled server on `dataDir`, as `npm start` runs it (a restart keeps the folder, so the jobs table). */
    async start(dataDir: string): Promise<ServerProcess> {
      last = await startServerProcess('compiled', dataDir, 60_000, undefined, {
        env: { FOLIO_ADMIN_TOKEN: options.token, FOLIO_OUTBOUND_ALLOW: '127.0.0.1', ...options.env?.() },
      });
      return last;
    },
  };
}
