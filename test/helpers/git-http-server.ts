import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A real smart-HTTP Git server for tests: Git's own `git http-backend` (CGI) behind a small
 * node:http server on 127.0.0.1, with HTTP basic auth and receive-pack enabled, serving the bare
 * repositories it creates under a temporary folder. Bodies are piped both ways (never buffered),
 * so packs of any size pass. Helpers drive the git CLI: make a repository, read a branch, and
 * push a commit over HTTP as another writer would.
 */

const HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** Files of a commit: text or bytes; `null` deletes (in pushCommit). */
export type FileChanges = Record<string, string | Uint8Array | null>;

export interface SeenRequest {
  method: string;
  /** e.g. `/docs.git/info/refs` or `/docs.git/git-receive-pack`. */
  path: string;
  /** The `service` query parameter of an info/refs request. */
  service: string | null;
  status: number;
}

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  username: string;
  password: string;
  /** The folder holding the bare repositories. */
  root: string;
  /** Every request answered, in order (a test checks, say, that nothing was pushed). */
  requests: SeenRequest[];
  /** While true, requests are held unanswered (to test timeouts and cancellation). */
  stall: boolean;
  /** Awaited before an authenticated request reaches Git (to make something happen in between). */
  beforeAnswer?: (request: SeenRequest) => Promise<void> | void;
  /** `<origin>/<name>.git` */
  repoUrl(name: string): string;
  /** Runs the git CLI in the bare repository `name`; resolves with its stdout. */
  git(name: string, args: string[]): Promise<Buffer>;
  /** A bare repository with one commit of `files` on `branch` (none: an empty repository); its commit or null. */
  createRepo(
    name: string,
    files?: FileChanges,
    options?: { branch?: string; message?: string },
  ): Promise<string | null>;
  /** The commit at the tip of `branch`, or null when it does not exist. */
  head(name: string, branch?: string): Promise<string | null>;
  /** Every file of `ref` (a branch or a commit) as the git CLI sees it: path → bytes. */
  readFiles(name: string, ref?: string): Promise<Map<string, Buffer>>;
  /** A commit as the git CLI sees it. */
  showCommit(name: string, commit: string): Promise<CommitInfo>;
  /** Clones over HTTP, applies `changes`, commits and pushes to `branch` (as a writer would); the new commit. */
  pushCommit(name: string, branch: string, changes: FileChanges, message?: string): Promise<string>;
  close(): Promise<void>;
}

export interface CommitInfo {
  parents: string[];
  authorName: string;
  authorEmail: string;
  message: string;
}

/** The git CLI's environment: no user or system config, a fixed identity, never a prompt. */
function gitEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Test Writer',
    GIT_AUTHOR_EMAIL: 'writer@example.com',
    GIT_COMMITTER_NAME: 'Test Writer',
    GIT_COMMITTER_EMAIL: 'writer@example.com',
  };
}

function run(args: string[], cwd: string, home: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, env: gitEnv(home), encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`git ${args.join(' ')} failed: ${stderr.toString()}`));
        else resolve(stdout);
      },
    );
  });
}

async function writeChanges(dir: string, changes: FileChanges): Promise<void> {
  for (const [path, content] of Object.entries(changes)) {
    const file = join(dir, path);
    if (content === null) await rm(file, { force: true });
    else {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
}

/** Starts the server; `close()` stops it and deletes its repositories. */
export async function startGitHttpServer(
  options: { username?: string; password?: string } = {},
): Promise<GitHttpServer> {
  const username = options.username ?? 'writer';
  const password = options.password ?? 'correct-horse-battery';
  const base = await mkdtemp(join(tmpdir(), 'folio-git-http-'));
  const root = join(base, 'repos');
  const home = join(base, 'home');
  await mkdir(root);
  await mkdir(home);
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const requests: SeenRequest[] = [];
  const held = new Set<http.ServerResponse>();
  /** Backends still running: killed by close(), so none outlives the test (one left reading stdin spins). */
  const backends = new Set<ReturnType<typeof spawn>>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const seen: SeenRequest = {
      method: req.method ?? '',
      path: url.pathname,
      service: url.searchParams.get('service'),
      status: 0,
    };
    res.on('finish', () => {
      seen.status = res.statusCode;
      requests.push(seen);
    });
    if (api.stall) {
      held.add(res);
      return;
    }
    if (req.headers.authorization !== expected) {
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"', 'content-type': 'text/plain' }).end('no');
      return;
    }
    void Promise.resolve(api.beforeAnswer?.(seen)).then(
      () => runBackend(req, res, url),
      () => res.writeHead(500).end('beforeAnswer failed'),
    );
  });

  /** Hands the request to `git http-backend` (CGI) and its answer back. */
  const runBackend = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    // The client went away while beforeAnswer held the request (a killed server's push): its body will
    // never end, so a backend started now would wait for it forever.
    if (res.destroyed) return;
    const cgi = spawn(HTTP_BACKEND, [], {
      env: {
        ...gitEnv(home),
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        // Without CONTENT_LENGTH http-backend reads the body to its end: how chunked requests work.
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(typeof req.headers['git-protocol'] === 'string' ? { GIT_PROTOCOL: req.headers['git-protocol'] } : {}),
        REMOTE_USER: username,
        REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      },
    });
    backends.add(cgi);
    cgi.on('exit', () => backends.delete(cgi));
    req.pipe(cgi.stdin);
    cgi.stdin.on('error', () => {}); // the backend may stop reading early (a refused request)
    // The client went away mid-answer: stop the backend (res, not req: req closes once its body is read).
    res.on('close', () => {
      if (!res.writableFinished) cgi.kill();
    });
    pipeCgiResponse(cgi.stdout, res);
    cgi.on('error', () => res.destroy());
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const bare = (name: string) => join(root, `${name}.git`);
  const authHeader = ['-c', `http.extraHeader=Authorization: ${expected}`];

  const api: GitHttpServer = {
    origin,
    username,
    password,
    root,
    requests,
    stall: false,
    repoUrl: (name) => `${origin}/${name}.git`,
    git: (name, args) => run(args, bare(name), home),
    async createRepo(name, files, opts = {}) {
      const branch = opts.branch ?? 'main';
      await run(['init', '--quiet', '--bare', `--initial-branch=${branch}`, bare(name)], root, home);
      await run(['config', 'http.receivepack', 'true'], bare(name), home);
      if (!files) return null;
      const work = await mkdtemp(join(base, 'work-'));
      try {
        await run(['init', '--quiet', `--initial-branch=${branch}`, work], work, home);
        await writeChanges(work, files);
        await run(['add', '--all'], work, home);
        await run(['commit', '--quiet', '--allow-empty', '-m', opts.message ?? 'Initial commit'], work, home);
        await run(['push', '--quiet', bare(name), `HEAD:refs/heads/${branch}`], work, home);
        return (await run(['rev-parse', 'HEAD'], work, home)).toString().trim();
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    async head(name, branch = 'main') {
      const out = await run(['for-each-ref', '--format=%(objectname)', `refs/heads/${branch}`], bare(name), home);
      return out.toString().trim() || null;
    },
    async readFiles(name, ref = 'main') {
      const files = new Map<string, Buffer>();
      const listing = (await run(['ls-tree', '-r', '-z', ref], bare(name), home)).toString('utf8');
      for (const entry of listing.split('\0').filter(Boolean)) {
        const [meta, path] = entry.split('\t') as [string, string];
        const [, type, oid] = meta.split(' ') as [string, string, string];
        if (type === 'blob') files.set(path, await run(['cat-file', 'blob', oid], bare(name), home));
      }
      return files;
    },
    async showCommit(name, commit) {
      const out = (await run(['show', '-s', '--format=%P%n%an%n%ae%n%B', commit], bare(name), home)).toString();
      const [parents = '', authorName = '', authorEmail = '', ...message] = out.split('\n');
      return {
        parents: parents.split(' ').filter(Boolean),
        authorName,
        authorEmail,
        message: message.join('\n').replace(/\n+$/, ''),
      };
    },
    async pushCommit(name, branch, changes, message = 'A writer pushed') {
      const work = await mkdtemp(join(base, 'work-'));
      try {
        await run([...authHeader, 'clone', '--quiet', '--branch', branch, api.repoUrl(name), work], base, home);
        await writeChanges(work, changes);
        await run(['add', '--all'], work, home);
        await run(['commit', '--quiet', '-m', message], work, home);
        await run([...authHeader, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], work, home);
        return (await run(['rev-parse', 'HEAD'], work, home)).toString().trim();
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    async close() {
      for (const res of held) res.destroy();
      for (const cgi of backends) cgi.kill('SIGKILL');
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rm(base, { recursive: true, force: true });
    },
  };
  return api;
}

/**
 * Turns the CGI's output (headers, a blank line, the body) into the HTTP response: the `Status`
 * header becomes the status line, the rest is piped through as it comes.
 */
function pipeCgiResponse(out: NodeJS.ReadableStream, res: http.ServerResponse): void {
  let head = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf('\r\n\r\n');
    const lf = head.indexOf('\n\n');
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf + 4 : lf >= 0 ? lf + 2 : -1;
    if (end < 0) return;
    out.off('data', onData);
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const key = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (key.toLowerCase() === 'status') status = Number(value.split(' ')[0]) || 500;
      else headers[key] = value;
    }
    res.writeHead(status, headers);
    res.write(head.subarray(end));
    out.pipe(res);
  };
  out.on('data', onData);
  out.on('end', () => {
    if (!res.headersSent) res.writeHead(502).end('the git backend answered nothing');
  });
}
