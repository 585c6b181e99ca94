import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** s3rver's fixed credentials (it accepts any signature made with them). */
const ACCESS_KEY = 'S3RVER';
const MAIN = fileURLToPath(new URL('./s3-server-main.mjs', import.meta.url));

/** A real S3-protocol server on 127.0.0.1 (s3rver in its own process), with one bucket. */
export interface S3Server {
  endpoint: string;
  bucket: string;
  /** The FOLIO_S3_* settings and AWS credentials a Folio process needs to use the bucket. */
  env(prefix?: string): Record<string, string>;
  /** AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY alone (for an in-process server: the SDK reads process.env). */
  credentials: Record<string, string>;
  /** Ends the server process at once (kill -9): the bucket is unreachable until `restart`. */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the same objects. */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
  /** What the server process printed, and how it exited (for failure messages). */
  output(): string;
}

/** Starts s3rver on 127.0.0.1 port 0 with a temporary folder and the bucket `bucket`. */
export async function startS3Server(bucket = 'folio-test'): Promise<S3Server> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-s3-'));
  let running = await launch(dir, 0, bucket);
  const port = running.port;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: (prefix = '') => ({
      FOLIO_S3_BUCKET: bucket,
      FOLIO_S3_ENDPOINT: endpoint,
      FOLIO_S3_REGION: 'us-east-1',
      FOLIO_S3_FORCE_PATH_STYLE: 'on',
      ...(prefix ? { FOLIO_S3_PREFIX: prefix } : {}),
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: ACCESS_KEY,
    }),
    credentials: { AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: ACCESS_KEY },
    async stop() {
      await running.kill();
    },
    async restart() {
      await running.kill();
      running = await launch(dir, port, bucket);
    },
    async close() {
      await running.kill();
      await rm(dir, { recursive: true, force: true });
    },
    output: () => running.output(),
  };
}

async function launch(dir: string, port: number, bucket: string) {
  const child: ChildProcess = spawn(process.execPath, ['--openssl-legacy-provider', MAIN, dir, String(port), bucket], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      out += `\n[exited: ${code ?? signal}]`;
      r();
    }),
  );
  const bound = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`s3rver did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /\{"port":(\d+)\}/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited:\n${out}`));
    });
  });
  return {
    port: bound,
    output: () => out,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
