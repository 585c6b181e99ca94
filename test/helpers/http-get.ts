import { request } from 'node:http';

/** An answer read through node:http. */
export interface HttpAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * GET `path` (with its query) of the server at `base` through node:http, which sends the Host
 * header as given — fetch() would replace it — so tests can ask as a published site's hostname.
 */
export function httpGet(base: string, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}
