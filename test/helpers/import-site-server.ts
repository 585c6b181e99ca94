import http from 'node:http';
import { strToU8, zipSync } from 'fflate';
import type { AddressInfo } from 'node:net';

/**
 * A small website on 127.0.0.1 (port 0) for the import tests: a home page linking to a guide and
 * an about page, an external site (never to be followed) and a missing page (404, skipped); the
 * guide has a code block, a table and an image, and links to its nested pages, which link back
 * (loops); `/many/` links to 30 pages (limits); `/slow` never answers (timeouts); `set` serves
 * any other body (an export .zip, a markdown file) at `/files/<name>`. `/paced/` is a site as slow
 * as the test wants: each of its requests is held until the test releases its path, so a test can
 * read a running import between two pages. `/paced/` links to `/paced/1`…`/paced/4` and
 * `/paced/gone` (404); `/paced/2` links to `/paced/2/more`: 7 pages found, 6 imported, 1 skipped.
 */
export interface SiteServer {
  url: string;
  /** Request paths in the order they came. */
  hits: string[];
  set(name: string, body: Buffer | string, contentType: string): void;
  /** Paths of the /paced/ requests held now. */
  held(): string[];
  /** Answers the held requests of `path`, and later ones at once; `'/paced'` releases every /paced/ path. */
  release(path: string): void;
  close(): Promise<void>;
}

/** A 1x1 transparent PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const layout = (title: string, main: string) => `<!doctype html>
<html><head><title>${title} | Test Docs</title></head>
<body>
<header><a href="/">Test Docs</a></header>
<nav><a href="/">Home</a> <a href="/guide/">Guide</a> <a href="/about">About</a></nav>
<main>${main}</main>
<footer>Copyright Test Docs. <a href="https://external.example/never">External</a></footer>
</body></html>`;

const PAGES: Record<string, string> = {
  '/': layout(
    'Home',
    `<h1>Welcome</h1>
<p>Start with the <a href="/guide/">guide</a>, read <a href="/about#team">about us</a>,
or visit <a href="https://external.example/docs">the external site</a>.</p>
<p>This link is broken: <a href="/missing">missing page</a>.</p>`,
  ),
  '/guide/': layout(
    'Guide',
    `<h1>Guide</h1>
<p>First <a href="install">install it</a>, then go <a href="/">home</a>.</p>
<p><img src="/img/logo.png" alt="Logo"></p>
<pre><code class="language-js">const answer = 42;
console.log(answer);</code></pre>
<table><thead><tr><th>Option</th><th>Default</th></tr></thead>
<tbody><tr><td>port</td><td>8080</td></tr><tr><td>host</td><td>localhost</td></tr></tbody></table>`,
  ),
  '/guide/install': layout(
    'Install',
    `<h1>Install</h1>
<p>Back to the <a href="/guide/">guide</a>. Then the <a href="/guide/advanced/deep">deep dive</a>.</p>`,
  ),
  '/guide/advanced/deep': layout(
    'Deep dive',
    `<h1>Deep dive</h1><p>Deep content, <strong>bold</strong>. <a href="/guide/install">Install again</a>.</p>`,
  ),
  '/about': layout('About', `<h1>About</h1><h2 id="team">Team</h2><p>We write docs.</p>`),
  '/many/': layout(
    'Many',
    `<h1>Many</h1><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/many/${i + 1}">Page ${i + 1}</a></li>`).join('')}</ul>`,
  ),
};
for (let i = 1; i <= 30; i++) PAGES[`/many/${i}`] = layout(`Many ${i}`, `<h1>Many ${i}</h1><p>Page ${i}.</p>`);
PAGES['/paced/'] = layout(
  'Paced',
  `<h1>Paced</h1><ul>${['1', '2', '3', '4', 'gone'].map((p) => `<li><a href="/paced/${p}">Paced ${p}</a></li>`).join('')}</ul>`,
);
for (const p of ['1', '3', '4', '2/more'])
  PAGES[`/paced/${p}`] = layout(`Paced ${p}`, `<h1>Paced ${p}</h1><p>Slow.</p>`);
PAGES['/paced/2'] = layout('Paced 2', '<h1>Paced 2</h1><p>One more: <a href="/paced/2/more">more</a>.</p>');

export async function startSiteServer(): Promise<SiteServer> {
  const hits: string[] = [];
  const files = new Map<string, { body: Buffer; type: string }>();
  const hanging = new Set<http.ServerResponse>();
  const paced = new Map<http.ServerResponse, () => void>();
  const released = new Set<string>();
  const isReleased = (path: string) => released.has('/paced') || released.has(path);
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push(path);
    if (path === '/slow') {
      hanging.add(res); // never answers
      return;
    }
    if (path.startsWith('/paced') && !isReleased(path)) {
      paced.set(res, () => answer(path, res));
      res.once('close', () => paced.delete(res));
      return;
    }
    answer(path, res);
  });
  const answer = (path: string, res: http.ServerResponse) => {
    if (path === '/img/logo.png') {
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      return;
    }
    const file = path.startsWith('/files/') ? files.get(decodeURIComponent(path.slice(7))) : undefined;
    if (file) {
      res.writeHead(200, { 'content-type': file.type }).end(file.body);
      return;
    }
    const page = PAGES[path];
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    set(name, body, type) {
      files.set(name, { body: Buffer.isBuffer(body) ? body : Buffer.from(body), type });
    },
    held: () => [...paced.keys()].map((res) => new URL(res.req.url ?? '/', 'http://x').pathname),
    release(path) {
      released.add(path);
      for (const [res, send] of paced)
        if (isReleased(new URL(res.req.url ?? '/', 'http://x').pathname)) {
          paced.delete(res);
          send();
        }
    },
    async close() {
      for (const res of [...hanging, ...paced.keys()]) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A GitBook export as a .zip, built here: README.md the first page, SUMMARY.md the table of
 * contents (a nested list and a `## Reference` group), a folder with its own README.md, links
 * between pages and an image under .gitbook/assets/.
 */
export function exportZip(): Buffer {
  return Buffer.from(
    zipSync({
      'README.md': strToU8(
        '# Introduction\n\nWelcome to the export. Next: [Setup](getting-started/setup.md).\n\n![Diagram](.gitbook/assets/diagram.png)\n',
      ),
      'SUMMARY.md': strToU8(
        '# Table of contents\n\n* [Introduction](README.md)\n* [Getting started](getting-started/README.md)\n  * [Setup](getting-started/setup.md)\n\n## Reference\n\n* [API](reference/api.md)\n',
      ),
      'getting-started/README.md': strToU8('# Getting started\n\nHow to start.\n'),
      'getting-started/setup.md': strToU8(
        '---\ndescription: Set it up\n---\n\n# Setup\n\n```bash\nnpm install\n```\n\nBack to [the introduction](../README.md).\n',
      ),
      'reference/api.md': strToU8('# API\n\n| Call | Use |\n| --- | --- |\n| get | reads |\n'),
      '.gitbook/assets/diagram.png': PNG,
    }),
  );
}
