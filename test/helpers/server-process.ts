import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { serverEnvironment } from '../../scripts/start.mjs';
import { childEnv, ROOT } from './cli-process';

/**
 * A sync server started as `npm start` runs it, in a child process of its own (compiled:
 * `node out/server/main.js`; or from the sources through tsx), on a temp data dir. Used by the
 * startup benchmark, by the test that proves the compiled start answers, and by the end-to-end
 * suites (compiled-server.ts).
 */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** From spawn to the first 200 of GET /healthz (ms). */
  firstAnswerMs: number;
  /** CPU time (user + system) the process had used by then (ms; NaN without /proc): unlike wall time, not inflated by a busy machine. */
  firstAnswerCpuMs: number;
  /** What the process printed so far. */
  output(): string;
  /** SIGTERM, and the exit code once it has shut down. */
  stop(): Promise<number | null>;
}

/** How to start the server: the compiled bundle (the production start) or the TypeScript sources through tsx. */
export type StartMode = 'compiled' | 'tsx';

/** package.json's start script, word by word: `node`, its flags and the script (no shell syntax: it runs in cmd.exe too). */
function npmStartWords(): string[] {
  const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/);
}

/** Node's own flags in `npm start` (package.json's start script, e.g. `--v8-pool-size=1`). */
export function npmStartNodeFlags(): string[] {
  const words = npmStartWords();
  return words[0] === 'node' ? words.slice(1).filter((w) => w.startsWith('--')) : [];
}

/**
 * The environment `npm start` gives the server on top of the caller's (scripts/start.mjs
 * `serverEnvironment`: glibc's malloc settings on Linux where Node can exec itself with them): the
 * compiled server runs with it in the benchmarks and the tests, as it does in production.
 */
export function npmStartEnv(): Record<string, string> {
  return serverEnvironment(process.env);
}

/** The environment a start in `mode` adds: `npm start`'s for the compiled server, none for tsx. */
export function startEnv(mode: StartMode): Record<string, string> {
  return mode === 'compiled' ? npmStartEnv() : {};
}

/** The compiled server's entry, relative to the project root. */
export const COMPILED_ENTRY = 'out/server/main.js';

export const START_ARGS: Record<StartMode, string[]> = {
  // With the Node flags `npm start` uses, so every figure is of the server as it runs in production.
  compiled: [...npmStartNodeFlags(), COMPILED_ENTRY],
  tsx: ['--import', 'tsx', 'sync-server/main.ts'],
};

/** A port free right now (the server is given it up front, so the first answer can be polled from spawn on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** What a start may add: FOLIO_* settings (applied last) and the port (a restart keeps its address). */
export interface ServerProcessOptions {
  env?: Record<string, string>;
  port?: number;
}

/** Starts the server in `mode` on `dataDir` and resolves once GET /healthz has answered 200. */
export async function startServerProcess(
  mode: StartMode,
  dataDir: string,
  timeoutMs = 120_000,
  /** Node's arguments instead of `START_ARGS[mode]` (the startup benchmark's reference build). */
  args = START_ARGS[mode],
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...childEnv(dataDir),
      ...startEnv(mode),
      ...options.env,
      FOLIO_PORT: String(port),
      FOLIO_HOST: '127.0.0.1',
    },
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const stop = async () => {
    if (!gone) child.kill('SIGTERM');
    return exited;
  };
  for (;;) {
    if (gone) throw new Error(`the server (${mode}) exited before answering:\n${out}`);
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the server (${mode}) did not answer within ${timeoutMs} ms:\n${out}`);
    }
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) {
      const firstAnswerMs = performance.now() - started;
      return { child, url, firstAnswerMs, firstAnswerCpuMs: cpuMs(child.pid!), output: () => out, stop };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** CPU time (user + system, ms) a process has used, from /proc/<pid>/stat (clock ticks of 10 ms); NaN where there is no /proc. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the 1st, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Resident memory of a process (VmRSS, MiB), from /proc; undefined where there is no /proc. */
export function rssMiB(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}
