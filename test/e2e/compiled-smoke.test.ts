import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { HttpBrowser } from '../helpers/http-browser';
import { deviceToken, ownPageHeaders, signInWithEmailLink } from '../helpers/people';
import { newKeyPair } from '../helpers/saml-idp';
import { seedPages, type PageIds } from '../helpers/seed';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { waitFor } from '../helpers/wait';
import { requireBuiltRenderer } from '../helpers/web-app';

/**
 * The API and the published sites of the compiled server, started exactly as `npm start` starts it
 * (out/server/main.js, its flags and environment; PGlite in a data folder), on a normal docs
 * fixture: headings, code in a language, a hint, a table, math, links between pages, an image, and
 * a page only some visitors may read. Every page must come out formatted wherever it shows — as a
 * REST document, a site page, llms-full.txt, a PDF — and every lazily loaded part (the markdown
 * workers, Shiki, KaTeX, pdfkit, the mailer, SAML) must work from the bundle. The last test runs
 * the same degradation checks on a fixture whose first page is too complex to format (a table of
 * 129 columns: shown as plain text by design), so a check that stopped seeing degraded pages
 * would fail too.
 */

const run = promisify(execFile);

/** A 2×2 PNG (an image the fixture shows). */
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR42mNk+M9QzwAEjDAGNzYAAE4IBAHv+Xy4AAAAAElFTkSuQmCC';

/** The word only the field notes contain (search must find it, with a snippet). */
const RARE_WORD = 'albatross';

/** Pages a visitor without claims may not read (adaptive content): links to them show as text. */
const BETA_CONDITION = 'visitor.claims.unsigned.beta == true';

interface Fixture {
  orgId: string;
  spaceId: string;
  ids: PageIds;
  /** REST path of each page by ref. */
  paths: Record<string, string>;
  siteBase: string;
}

const REFS = ['start', 'config', 'notes', 'beta'] as const;
const VISIBLE = ['start', 'config', 'notes'] as const;
const TITLES: Record<(typeof REFS)[number], string> = {
  start: 'Getting started',
  config: 'Configuration',
  notes: 'Field notes',
  beta: 'Beta features',
};

async function api<T>(server: CompiledServer, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** A table over the 128-column limit: the page holding it is not formatted (docs/configuration.md "Markdown too complex to format"). */
const TOO_WIDE_TABLE = `\n${'| c '.repeat(129)}|\n${'| --- '.repeat(129)}|\n`;

/**
 * The fixture: an organization, a space of four pages (one for beta visitors only), a published
 * site with adaptive content. `degraded`: the first page also holds a table too wide to format.
 */
async function setUp(server: CompiledServer, options: { degraded?: boolean } = {}): Promise<Fixture> {
  const orgId = (await api<{ id: string }>(server, 'POST', '/orgs', { title: 'Smoke Docs' })).id;
  const spaceId = (await api<{ id: string }>(server, 'POST', `/orgs/${orgId}/spaces`, { title: 'Handbook' })).id;
  const ids = await seedPages(
    server,
    spaceId,
    [
      {
        ref: 'start',
        title: TITLES.start,
        description: 'Install Folio and publish a first site.',
        markdown: (id) =>
          `Folio keeps the handbook. Read [the configuration](configuration.md) first, and the [beta features](/pages/${id.beta}) if you test them.\n\n` +
          "## Install\n\n```ts\nimport { createServer } from 'folio';\n\nconst server = createServer({ port: 8080 });\n```\n\n" +
          '{% hint style="info" %}\nYou need **Node 20** or later.\n{% endhint %}\n\n' +
          '| Setting | Default |\n| --- | --- |\n| port | 8080 |\n| data | ./data |\n\n' +
          `## Diagram\n\n![The sync diagram](/files/${id.diagram})\n\n` +
          '$$\nf(x) = \\int_{-\\infty}^{\\infty} \\hat f(\\xi)\\,e^{2 \\pi i \\xi x} \\,d\\xi\n$$\n' +
          (options.degraded ? TOO_WIDE_TABLE : ''),
      },
      {
        ref: 'config',
        title: TITLES.config,
        slug: 'configuration',
        markdown: (id) =>
          `Every setting is an environment variable. Back to [Getting started](/pages/${id.start}).\n\n` +
          '## Ports\n\n```sh\nFOLIO_PORT=8080 npm start\n```\n\n### Storage\n\nFiles go to the data folder.\n',
      },
      {
        ref: 'notes',
        title: TITLES.notes,
        markdown:
          `## Nesting habits\n\nThe ${RARE_WORD} glides for hours over the open ocean before it lands to nest.\n\n` +
          '```python\ndef glide(hours):\n    return hours * 60\n```\n\nThe sides obey $$a^2 + b^2 = c^2$$ as always.\n',
      },
      {
        ref: 'beta',
        title: TITLES.beta,
        condition: BETA_CONDITION,
        markdown: '## Preview\n\n```json\n{ "beta": true }\n```\n\nSee [Configuration](configuration.md).\n',
      },
    ],
    { files: [{ ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: PNG_BASE64 }] },
  );
  const paths: Record<string, string> = {};
  for (const ref of REFS)
    paths[ref] = (await api<{ path: string }>(server, 'GET', `/spaces/${spaceId}/content/page/${ids[ref]}`)).path;
  const site = await api<{ id: string }>(server, 'POST', `/orgs/${orgId}/sites`, {
    title: 'Smoke Docs',
    visibility: 'public',
    spaces: [spaceId],
  });
  await api(server, 'PATCH', `/orgs/${orgId}/sites/${site.id}`, { adaptiveContent: { enabled: true } });
  await api(server, 'POST', `/orgs/${orgId}/sites/${site.id}/publish`);
  return { orgId, spaceId, ids, paths, siteBase: `${server.url}/sites/${site.id}/` };
}

/** An HTML attribute's value as the browser reads it (hast escapes `&` as `&#x26;`). */
const unescapeAttribute = (value: string) => value.replace(/&(?:amp|#x26|#38);/g, '&');

/** A site page's URL (the space's first page is the site root). */
const siteUrl = (f: Fixture, ref: string) => (ref === 'start' ? f.siteBase : `${f.siteBase}${f.paths[ref]}`);

interface DocNode {
  type?: string;
  data?: Record<string, unknown>;
  nodes?: DocNode[];
}

/** A page of the space as GitBook's JSON document. */
async function documentOf(server: CompiledServer, f: Fixture, ref: string): Promise<{ document: DocNode }> {
  return api(server, 'GET', `/spaces/${f.spaceId}/content/page/${f.ids[ref]}?format=document`);
}

/** Every node of a document tree, depth first. */
function nodesOf(node: DocNode): DocNode[] {
  return [node, ...(node.nodes ?? []).flatMap(nodesOf)];
}

/** The text of a PDF (poppler's pdftotext). */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-smoke-pdf-'));
  try {
    await writeFile(join(dir, 'doc.pdf'), Buffer.from(bytes));
    return (await run('pdftotext', [join(dir, 'doc.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The whole space as a PDF (a change request's export), as text. */
async function spacePdf(server: CompiledServer, f: Fixture): Promise<string> {
  const cr = await api<{ id: string }>(server, 'POST', `/spaces/${f.spaceId}/change-requests`, { subject: 'Export' });
  const { url } = await api<{ url: string }>(server, 'GET', `/spaces/${f.spaceId}/change-requests/${cr.id}/pdf`);
  const res = await fetch(url);
  if (res.status !== 200 || res.headers.get('content-type') !== 'application/pdf')
    throw new Error(`the PDF link answered ${res.status} ${res.headers.get('content-type')}`);
  return pdfText(await res.arrayBuffer());
}

/**
 * Every place a page of the fixture could be served degraded (shown as plain text because the
 * markdown was not formatted), each named: the REST document's `data.degraded`, the site page's
 * `folio-degraded` body and note, llms-full.txt, and the PDF's plain-text note. Empty when
 * everything was formatted.
 */
async function degradedPlaces(server: CompiledServer, f: Fixture): Promise<string[]> {
  const found: string[] = [];
  for (const ref of REFS) {
    const { document } = await documentOf(server, f, ref);
    const degraded = document.data?.degraded as { reason: string; message: string } | undefined;
    if (degraded) found.push(`REST document of "${TITLES[ref]}": degraded (${degraded.reason}: ${degraded.message})`);
  }
  for (const ref of VISIBLE) {
    const html = await (await fetch(siteUrl(f, ref))).text();
    const reason = /class="folio-degraded" data-degraded="([^"]*)"/.exec(html)?.[1];
    if (reason || html.includes('shown as plain text'))
      found.push(`site page of "${TITLES[ref]}": shown as plain text (${reason ?? 'note only'})`);
  }
  // llms-full.txt carries each page's markdown as written (no parse): it has no degraded form today,
  // but would it ever show the plain-text note, that is a page served degraded too.
  const full = await (await fetch(`${f.siteBase}llms-full.txt`)).text();
  if (full.includes('shown as plain text')) found.push('llms-full.txt: a page shown as plain text');
  const pdf = await spacePdf(server, f);
  if (/shown as\s+plain\s+text/.test(pdf)) found.push('PDF: a page printed as plain text');
  return found;
}

describe('the compiled server, as npm start runs it', () => {
  let server: CompiledServer;
  let smtp: TestSmtp;
  let f: Fixture;

  beforeAll(async () => {
    requireBuiltRenderer();
    smtp = await startSmtp();
    server = await startCompiledServer({ env: { FOLIO_SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
    f = await setUp(server);
  });
  afterEach((ctx) => {
    // What the server logged (warnings and errors) says why a check failed.
    if (ctx.task.result?.state === 'fail' && server) console.log(`[compiled server]\n${server.output().slice(-4000)}`);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  it('formats every page: none is served degraded as a document, a site page, in llms-full.txt or the PDF', async () => {
    expect(await degradedPlaces(server, f)).toEqual([]);
  });

  it('serves every page as a document with its headings, code in a language, and its blocks', async () => {
    for (const ref of REFS) {
      const all = nodesOf((await documentOf(server, f, ref)).document);
      const types = all.map((n) => n.type);
      expect(types.filter((t) => /^heading-[123]$/.test(t ?? '')).length, TITLES[ref]).toBeGreaterThan(0);
      const code = all.find((n) => n.type === 'code');
      expect(code?.data?.syntax, TITLES[ref]).toMatch(/^(ts|sh|python|json)$/);
    }
    const start = nodesOf((await documentOf(server, f, 'start')).document);
    expect(start.map((n) => n.type)).toEqual(expect.arrayContaining(['table', 'images', 'image', 'link']));
    const link = start.find((n) => n.type === 'link');
    expect(link?.data?.ref).toEqual({ kind: 'url', url: `/pages/${f.ids.config}` });
  });

  it('lists the links of a page and the backlinks of the pages it links to', async () => {
    interface Ref {
      page?: string;
    }
    const links = await api<{ items: { status: string; targetReference: Ref & { kind: string; file?: string } }[] }>(
      server,
      'GET',
      `/spaces/${f.spaceId}/content/page/${f.ids.start}/links`,
    );
    const pages = links.items.filter((l) => l.targetReference.kind === 'page');
    expect(pages.map((l) => l.targetReference.page).sort()).toEqual([f.ids.beta, f.ids.config].sort());
    // The image is a link to its file.
    expect(links.items.filter((l) => l.targetReference.kind === 'file').map((l) => l.targetReference.file)).toEqual([
      f.ids.diagram,
    ]);
    expect(links.items.every((l) => l.status === 'ok')).toBe(true);
    const backlinks = async (ref: string) =>
      (
        await api<{ items: Ref[] }>(server, 'GET', `/spaces/${f.spaceId}/content/page/${f.ids[ref]}/backlinks`)
      ).items.map((b) => b.page);
    expect((await backlinks('config')).sort()).toEqual([f.ids.start, f.ids.beta].sort());
    expect(await backlinks('start')).toEqual([f.ids.config]);
    expect(await backlinks('notes')).toEqual([]);
  });

  it('finds a word with a snippet, in the space, the organization and the site', async () => {
    interface Section {
      id: string;
      body: string;
    }
    const inSpace = await waitFor(
      async () =>
        (
          await api<{ items: { id: string; sections: Section[] }[] }>(
            server,
            'GET',
            `/spaces/${f.spaceId}/search?query=${RARE_WORD}`,
          )
        ).items[0],
      15_000,
      'the search index',
      50,
    );
    expect(inSpace!.id).toBe(f.ids.notes);
    expect(inSpace!.sections[0]).toMatchObject({ id: 'nesting-habits', body: expect.stringContaining(RARE_WORD) });
    const inOrg = await api<{ items: { id: string; pages: { id: string; sections: Section[] }[] }[] }>(
      server,
      'GET',
      `/orgs/${f.orgId}/search?query=${RARE_WORD}`,
    );
    expect(inOrg.items.map((s) => s.id)).toEqual([f.spaceId]);
    expect(inOrg.items[0]!.pages[0]!.sections[0]!.body).toContain(RARE_WORD);
    const onSite = (await (await fetch(`${f.siteBase}~folio/search?q=${RARE_WORD}`)).json()) as {
      results: { title: string; path: string; url: string; snippet: string }[];
    };
    // One result per section: the heading the word sits under, on the field notes' page.
    expect(onSite.results.map((r) => [r.title, r.path])).toEqual([['Nesting habits', TITLES.notes]]);
    expect(new URL(onSite.results[0]!.url, f.siteBase).href).toBe(`${siteUrl(f, 'notes')}#nesting-habits`);
    expect(onSite.results[0]!.snippet).toContain(RARE_WORD);
  });

  it('exports the space as a PDF holding every page’s text', async () => {
    const text = await spacePdf(server, f);
    for (const title of Object.values(TITLES)) expect(text).toContain(title);
    expect(text).toContain('Every setting is an environment variable.');
    expect(text).toContain(RARE_WORD);
    expect(text).toContain('FOLIO_PORT=8080 npm start');
  });

  it('publishes every page as formatted HTML: highlighted code, math, the hint, the table, the image', async () => {
    for (const ref of VISIBLE) {
      const res = await fetch(siteUrl(f, ref));
      expect(res.status, TITLES[ref]).toBe(200);
      const html = await res.text();
      expect(html, TITLES[ref]).toContain(`<h1`);
      expect(html, TITLES[ref]).toContain(TITLES[ref]);
      // Shiki ran in the parse pool: highlighted token spans.
      expect(html, `${TITLES[ref]}: highlighted code`).toMatch(/<code class="[^"]*\bshiki\b/);
      expect(html, TITLES[ref]).not.toContain('folio-degraded');
    }
    const start = await (await fetch(f.siteBase)).text();
    expect(start).toMatch(/class="[^"]*\bhint-info\b/);
    expect(start).toContain('<table');
    // KaTeX's MathML inside the display formula.
    expect(start).toMatch(/class="[^"]*\bmath-display\b[^"]*"[^>]*>\s*(<span[^>]*>\s*)?<math/);
    const notes = await (await fetch(siteUrl(f, 'notes'))).text();
    expect(notes).toMatch(/class="[^"]*\bmath-inline\b[^"]*"[^>]*>\s*(<span[^>]*>\s*)?<math/);
    // The link to the hidden page is its text; the one to Configuration a link to its page.
    expect(start).not.toContain(f.paths.beta!);
    expect(start).toMatch(new RegExp(`href="[^"]*/${f.paths.config}"`));
    // The image, and every script and stylesheet the page names, answer.
    const image = /<img[^>]+src="([^"]+)"/.exec(start)?.[1];
    expect(image).toBeDefined();
    const bytes = await fetch(new URL(unescapeAttribute(image!), f.siteBase));
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    const assets = [...start.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"#]+)"/g)]
      .map((m) => new URL(unescapeAttribute(m[1]!), f.siteBase))
      .filter((u) => u.origin === new URL(server.url).origin && !/\/sites\/[^/]+\/[^~]/.test(u.pathname));
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect((await fetch(asset)).status, asset.href).toBe(200);
    // The page for beta visitors only is not there for others.
    expect((await fetch(siteUrl(f, 'beta'))).status).toBe(404);
  });

  it('serves sitemap.xml, llms.txt, llms-full.txt and the pages’ markdown', async () => {
    const sitemap = await fetch(`${f.siteBase}sitemap.xml`);
    expect(sitemap.status).toBe(200);
    const xml = await sitemap.text();
    for (const ref of VISIBLE) expect(xml).toContain(`<loc>${siteUrl(f, ref)}</loc>`);
    expect(xml).not.toContain(f.paths.beta!);

    const llms = await (await fetch(`${f.siteBase}llms.txt`)).text();
    for (const ref of VISIBLE) expect(llms).toContain(`[${TITLES[ref]}](`);
    expect(llms).not.toContain(TITLES.beta);

    const full = await fetch(`${f.siteBase}llms-full.txt`);
    expect(full.status).toBe(200);
    const text = await full.text();
    for (const ref of VISIBLE) expect(text).toContain(`# ${TITLES[ref]}`);
    expect(text).toContain(`The ${RARE_WORD} glides`);
    expect(text).toContain('Every setting is an environment variable.');
    expect(text).toContain('[the configuration](/pages/');
    // The hidden page is left out, and the link to it is its text.
    expect(text).not.toContain(TITLES.beta);
    expect(text).toContain('and the beta features if you test them');

    const md = await fetch(`${f.siteBase}${f.paths.config}.md`);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await md.text()).toContain('FOLIO_PORT=8080 npm start');
  });

  it('answers the sign-in pages: methods, the web app’s screen, an emailed link, the device consent, SAML', async () => {
    const methods = await fetch(`${server.url}/auth/methods`);
    expect(methods.status).toBe(200);
    expect(await methods.json()).toMatchObject({ email: true, token: true, oidc: null });
    const screen = await fetch(`${server.url}/app/sign-in`);
    expect(screen.status).toBe(200);
    expect(await screen.text()).toContain('<div id="app">');

    // An invited address gets the invite by mail, then signs in with a mailed link (nodemailer, from the bundle).
    const email = 'reader@smoke.example';
    await api(server, 'POST', `/orgs/${f.orgId}/invites`, { emails: [email], role: 'read' });
    await waitFor(() => smtp.messages.find((m) => m.to.includes(email)), 15_000, 'the invite mail');
    const browser = new HttpBrowser();
    await signInWithEmailLink(server, browser, smtp, email);
    const consent = await browser.request(
      `${server.url}/auth/device/authorize?${new URLSearchParams({
        redirect_uri: 'http://127.0.0.1:9/callback',
        state: 'smoke',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        device_name: 'Smoke bench',
      })}`,
    );
    expect(consent.status).toBe(200);
    expect(await consent.text()).toContain('Smoke bench');
    const device = await deviceToken(server, browser, 'Smoke bench');
    const me = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${device.token}` } });
    expect(((await me.json()) as { email: string }).email).toBe(email);
    const signOut = await browser.request(`${server.url}/auth/sign-out`, {
      method: 'POST',
      headers: ownPageHeaders(server),
    });
    expect(signOut.status).toBe(204);

    // SAML (node-saml, from the bundle): the service provider's metadata and the redirect to the IdP.
    const keys = await newKeyPair();
    const saml = await api<{ id: string }>(server, 'POST', `/orgs/${f.orgId}/saml`, {
      label: 'Smoke IdP',
      entityID: 'https://idp.smoke.example/metadata',
      ssoURL: 'https://idp.smoke.example/sso',
      certificate: keys.cert,
    });
    const metadata = await fetch(`${server.url}/auth/saml/${saml.id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain(`${server.url}/auth/saml/${saml.id}/acs`);
    const start = await fetch(`${server.url}/auth/saml/${saml.id}/start?next=/app/`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toMatch(/^https:\/\/idp\.smoke\.example\/sso\?SAMLRequest=/);
  });
});

describe('the same checks on a page too complex to format', () => {
  it('name each place it is shown as plain text: the document, the site page, the PDF', async () => {
    const server = await startCompiledServer();
    try {
      const f = await setUp(server, { degraded: true });
      const places = await degradedPlaces(server, f);
      expect(places.map((p) => p.replace(/ \(.*\)$/, ''))).toEqual([
        `REST document of "${TITLES.start}": degraded`,
        `site page of "${TITLES.start}": shown as plain text`,
        'PDF: a page printed as plain text',
      ]);
      expect(places[0]).toContain('table-columns');
    } finally {
      await server.close();
    }
  });
});
