import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server (127.0.0.1, port 0) serving OpenAPI specifications for the spec-processing
 * tests: valid 3.0, 3.1 and 2.0 specs in JSON and YAML, a spec with external $refs (relative,
 * nested, and one absolute), a spec with too many external files, broken YAML, a well-formed but invalid spec, a path that never
 * answers, an oversized body, a redirect to an address the server may not fetch (127.0.0.2, not
 * in FOLIO_OUTBOUND_ALLOW=127.0.0.1), a 503, and a document whose text the test sets (`set`).
 */
export interface SpecServer {
  url: string;
  /** Request paths in the order they came. */
  hits: string[];
  /** Sets the text served at `/mutable/<name>` (YAML or JSON). */
  set(name: string, text: string): void;
  close(): Promise<void>;
}

const info = (title: string) => ({ title, version: '1.0.0' });

const pets30 = {
  openapi: '3.0.3',
  info: info('Pets 3.0'),
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
        responses: {
          '200': {
            description: 'The pets',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
    },
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'A pet' } },
      },
    },
  },
  components: {
    schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
  },
};

const pets31 = {
  openapi: '3.1.0',
  info: info('Pets 3.1'),
  paths: {
    '/pets': {
      post: {
        operationId: 'createPet',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
  webhooks: { newPet: { post: { responses: { '200': { description: 'ok' } } } } },
  components: {
    schemas: { Pet: { type: 'object', properties: { name: { type: ['string', 'null'] } } } },
  },
};

const pets20 = {
  swagger: '2.0',
  info: info('Pets 2.0'),
  host: 'api.example.com',
  basePath: '/v1',
  paths: {
    '/pets': {
      get: {
        operationId: 'listPets',
        produces: ['application/json'],
        responses: { '200': { description: 'The pets', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: { Pet: { type: 'object', properties: { name: { type: 'string' } } } },
};

/** A small YAML writer for these plain documents (no library needed: keys and scalars are simple). */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value
      .map((v) => {
        const inner = toYaml(v, `${indent}  `);
        return `\n${indent}- ${inner.startsWith('\n') ? inner.trimStart() : inner}`;
      })
      .join('');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => {
        const inner = toYaml(v, `${indent}  `);
        return `\n${indent}${JSON.stringify(k)}:${inner.startsWith('\n') ? inner : ` ${inner}`}`;
      })
      .join('');
  }
  return JSON.stringify(value);
}

const yaml = (value: unknown) => `# served as YAML\n${toYaml(value).trimStart()}\n`;

export const SPECS = { pets30, pets31, pets20 };

export async function startSpecServer(): Promise<SpecServer> {
  const hits: string[] = [];
  const mutable = new Map<string, string>();
  let base = '';
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    const send = (text: string, type = 'application/json') => res.writeHead(200, { 'content-type': type }).end(text);
    const documents: Record<string, () => void> = {
      '/v30.json': () => send(JSON.stringify(pets30, null, 2)),
      '/v30.yaml': () => send(yaml(pets30), 'application/yaml'),
      '/v31.json': () => send(JSON.stringify(pets31)),
      '/v31.yaml': () => send(yaml(pets31), 'application/yaml'),
      '/v20.json': () => send(JSON.stringify(pets20)),
      '/v20.yaml': () => send(yaml(pets20), 'text/yaml'),
      // External references: a relative file that references a file in a subfolder, and an absolute URL.
      '/ext/openapi.yaml': () =>
        send(
          yaml({
            openapi: '3.0.3',
            info: info('External refs'),
            paths: {
              '/pets': {
                get: {
                  responses: {
                    '200': {
                      description: 'ok',
                      content: { 'application/json': { schema: { $ref: './schemas/pet.yaml' } } },
                    },
                  },
                },
              },
              '/owners': {
                get: {
                  responses: {
                    '200': {
                      description: 'ok',
                      content: { 'application/json': { schema: { $ref: `${base}/shared/owner.json#/Owner` } } },
                    },
                  },
                },
              },
            },
          }),
          'application/yaml',
        ),
      '/ext/schemas/pet.yaml': () =>
        send(
          yaml({ type: 'object', properties: { name: { type: 'string' }, tag: { $ref: './common/tag.json' } } }),
          'application/yaml',
        ),
      '/ext/schemas/common/tag.json': () => send(JSON.stringify({ type: 'string', maxLength: 20 })),
      '/shared/owner.json': () =>
        send(JSON.stringify({ Owner: { type: 'object', properties: { id: { type: 'integer' } } } })),
      // A reference to a file that is not there.
      '/ext-missing.yaml': () =>
        send(
          yaml({
            openapi: '3.0.3',
            info: info('Missing ref'),
            paths: {
              '/a': {
                get: {
                  responses: {
                    '200': { description: 'ok', content: { 'application/json': { schema: { $ref: './nope.yaml' } } } },
                  },
                },
              },
            },
          }),
        ),
      // 60 distinct external files (one more query each): past the limit of external files.
      '/many-refs.json': () =>
        send(
          JSON.stringify({
            openapi: '3.0.3',
            info: info('Many refs'),
            paths: {},
            components: {
              schemas: Object.fromEntries(
                Array.from({ length: 60 }, (_, i) => [`S${i}`, { $ref: `./ext/schemas/common/tag.json?n=${i}` }]),
              ),
            },
          }),
        ),
      '/broken.yaml': () => send('openapi: 3.0.3\ninfo: [title, {version: 1\npaths:\n  /a: {get\n', 'application/yaml'),
      // Well-formed, but not a valid 3.0 document: info has no version, a response has no description.
      '/invalid.json': () =>
        send(
          JSON.stringify({
            openapi: '3.0.3',
            info: { title: 'Invalid' },
            paths: { '/a': { get: { responses: { '200': {} } } } },
          }),
        ),
      '/hang': () => {
        // Accepts the request and never answers: the fetch's time limit must end it.
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
      },
      '/huge.json': () => {
        // 50 MB without a content-length: the fetcher must stop reading at its size limit.
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 50) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (sent = 50));
        pump();
      },
      '/redirect-refused': () => {
        const port = (server.address() as AddressInfo).port;
        res.writeHead(302, { location: `http://127.0.0.2:${port}/v31.json` }).end();
      },
      '/unavailable': () => res.writeHead(503, { 'content-type': 'text/plain' }).end('try later'),
    };
    const doc = documents[path];
    if (doc) return doc();
    const name = /^\/mutable\/(.+)$/.exec(path)?.[1];
    if (name && mutable.has(name)) return send(mutable.get(name)!, 'application/yaml');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    hits,
    set: (name, text) => void mutable.set(name, text),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
