import type { ServerProcess } from './server-process';

/** kill -9, and wait until the process is gone (its lock on an embedded data folder is then stale). */
export async function crash(s: ServerProcess): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGKILL');
  await exited;
}

/** A JSON call of a server process's REST API with `token` (any status; the body parsed when there is one). */
export function processApi(token: string) {
  return async (s: ServerProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${s.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
}
