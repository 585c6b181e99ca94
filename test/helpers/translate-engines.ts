import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Nodes } from 'mdast';
import { parseMarkdown } from '../../shared/markdown/parse';

/**
 * Stand-ins for the two kinds of translation engine, on 127.0.0.1 (port 0), for unit and API tests
 * (run the server with FOLIO_OUTBOUND_ALLOW=127.0.0.1 so it may call them):
 * - startLibreTranslateStandIn: POST /translate and GET /languages, like LibreTranslate (HTML format:
 *   whitespace collapsed as translatehtml does, `translate="no"` elements left alone);
 * - startOpenAiStandIn: POST …/chat/completions, answering in OpenAI's shape with the segments of the
 *   user message translated.
 * Both "translate" with fakeTranslate: every word gets the target code in front (`Hello world` →
 * `[fr]Hello [fr]world`), so a test sees at a glance what was translated and what was kept, and can
 * compute the expected text. Knobs: failNext (answer the next n calls with a status, headers such as
 * Retry-After, and the engine's error text in its own JSON shape), stall (the next
 * n calls never answer), requireKey, and for OpenAI breakStructure (the next n answers drop a placeholder).
 * RICH_MARKDOWN is a page with every construct a translation must handle, and verbatimParts lists what
 * must come out of a translation byte-exact (compare it on the input and the output).
 */

/** The stand-ins' translation: `[to]` before every word that starts with a letter (placeholders ⟦n⟧ have none). */
export function fakeTranslate(text: string, to: string): string {
  return text.replace(/\p{L}[\p{L}\p{M}\p{N}]*/gu, (word) => `[${to}]${word}`);
}

export interface StandInBase<Body> {
  url: string;
  /** Parsed bodies of the translation calls, in order (failed and stalled ones included). */
  requests: Body[];
  /**
   * Answers the next `n` translation calls with `status` (and these headers) and the engine's error
   * JSON, saying `message` (default "Stand-in failure <status>").
   */
  failNext(n: number, status: number, headers?: Record<string, string>, message?: string): void;
  /** The next `n` translation calls get no answer (until close). */
  stall(n: number): void;
  close(): Promise<void>;
}

export interface LibreTranslateRequest {
  q: string | string[];
  source: string;
  target: string;
  format?: string;
  api_key?: string;
}

export interface LibreTranslateStandIn extends StandInBase<LibreTranslateRequest> {
  /** How many times /languages was read. */
  languageReads: number;
}

export interface OpenAiRequest {
  model: string;
  temperature?: number;
  response_format?: { type: string };
  messages: { role: string; content: string }[];
}

export interface OpenAiStandIn extends StandInBase<OpenAiRequest> {
  /** The system prompt of each call. */
  systemPrompts: string[];
  /** The next `n` answers drop the first placeholder of the first segment that has one. */
  breakStructure(n: number): void;
}

/** The languages of a local LibreTranslate install with the usual models (its own codes: pb, zt, nb). */
export const LIBRETRANSLATE_LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pb',
  'ru',
  'ja',
  'zh',
  'zt',
  'ko',
  'nb',
  'nl',
  'pl',
  'uk',
];

interface Failure {
  status: number;
  headers: Record<string, string>;
  message: string;
}

interface Knobs {
  failures: Failure[];
  stalls: number;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function listen(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    handler(req, res).catch((err: Error) => json(res, 500, { error: String(err?.message ?? err) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Takes the next knob that applies: a failure to answer with, a stall, or nothing. */
function nextKnob(knobs: Knobs): 'stall' | Failure | undefined {
  if (knobs.stalls > 0) {
    knobs.stalls--;
    return 'stall';
  }
  return knobs.failures.shift();
}

function knobControls(knobs: Knobs) {
  return {
    failNext(n: number, status: number, headers: Record<string, string> = {}, message?: string) {
      for (let i = 0; i < n; i++)
        knobs.failures.push({ status, headers, message: message ?? `Stand-in failure ${status}` });
    },
    stall(n: number) {
      knobs.stalls += n;
    },
  };
}

const unescapeHtml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** LibreTranslate's HTML translation: whitespace collapsed, text translated except inside `translate="no"` elements. */
function translateHtml(html: string, to: string): string {
  const collapsed = html.split(/\s+/).join(' ').trim();
  let depthNo = 0;
  return collapsed.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag: string | undefined, text: string | undefined) => {
    if (tag) {
      const closing = tag.startsWith('</');
      const selfClosing = tag.endsWith('/>');
      if (depthNo > 0) depthNo += closing ? -1 : selfClosing ? 0 : 1;
      else if (!closing && !selfClosing && /\btranslate\s*=\s*"no"/i.test(tag)) depthNo = 1;
      return tag;
    }
    return depthNo > 0 ? text! : escapeHtml(fakeTranslate(unescapeHtml(text!), to));
  });
}

export async function startLibreTranslateStandIn(
  options: { requireKey?: string; languages?: string[]; listLanguages?: boolean } = {},
): Promise<LibreTranslateStandIn> {
  const knobs: Knobs = { failures: [], stalls: 0 };
  const languages = options.languages ?? LIBRETRANSLATE_LANGUAGES;
  const requests: LibreTranslateRequest[] = [];
  const state = { languageReads: 0 };
  const server = await listen(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path === '/languages' && options.listLanguages !== false) {
      state.languageReads++;
      return json(
        res,
        200,
        languages.map((code) => ({ code, name: code, targets: languages.filter((t) => t !== code) })),
      );
    }
    if (req.method !== 'POST' || path !== '/translate') return json(res, 404, { error: 'Not Found' });
    const body = JSON.parse(await readBody(req)) as LibreTranslateRequest;
    requests.push(body);
    const knob = nextKnob(knobs);
    if (knob === 'stall') return;
    if (knob) return json(res, knob.status, { error: knob.message }, knob.headers);
    if (options.requireKey !== undefined) {
      if (!body.api_key) return json(res, 400, { error: 'Please contact the server operator to get an API key' });
      if (body.api_key !== options.requireKey) return json(res, 403, { error: 'Invalid API key' });
    }
    for (const code of [body.source, body.target])
      if (!languages.includes(code)) return json(res, 400, { error: `${code} is not supported` });
    const translate = (text: string) =>
      body.format === 'html' ? translateHtml(text, body.target) : fakeTranslate(text, body.target);
    const q = body.q;
    json(res, 200, { translatedText: Array.isArray(q) ? q.map(translate) : translate(q) });
  });
  return {
    url: server.url,
    requests,
    get languageReads() {
      return state.languageReads;
    },
    ...knobControls(knobs),
    close: server.close,
  };
}

function openAiError(res: http.ServerResponse, status: number, message: string, code: string, headers = {}): void {
  json(res, status, { error: { message, type: 'invalid_request_error', param: null, code } }, headers);
}

export async function startOpenAiStandIn(options: { requireKey?: string } = {}): Promise<OpenAiStandIn> {
  const knobs: Knobs = { failures: [], stalls: 0 };
  const requests: OpenAiRequest[] = [];
  const systemPrompts: string[] = [];
  let breaks = 0;
  const server = await listen(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'POST' || !path.endsWith('/chat/completions'))
      return openAiError(res, 404, `Unknown request URL: ${path}`, 'unknown_url');
    const body = JSON.parse(await readBody(req)) as OpenAiRequest;
    requests.push(body);
    systemPrompts.push(body.messages.find((m) => m.role === 'system')?.content ?? '');
    const knob = nextKnob(knobs);
    if (knob === 'stall') return;
    if (knob) return openAiError(res, knob.status, knob.message, 'stand_in', knob.headers);
    if (options.requireKey !== undefined) {
      const given = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
      if (given !== options.requireKey)
        return openAiError(res, 401, `Incorrect API key provided: ${given ?? '(none)'}.`, 'invalid_api_key');
    }
    const user = JSON.parse(body.messages.find((m) => m.role === 'user')?.content ?? '{}') as {
      to?: string;
      segments?: Record<string, string>;
    };
    const to = user.to ?? 'xx';
    const segments: Record<string, string> = {};
    for (const [id, text] of Object.entries(user.segments ?? {})) segments[id] = fakeTranslate(text, to);
    if (breaks > 0) {
      breaks--;
      const id = Object.keys(segments).find((k) => /⟦\d+⟧/.test(segments[k]!));
      if (id) segments[id] = segments[id]!.replace(/⟦\d+⟧/, '');
    }
    json(res, 200, {
      id: `chatcmpl-${requests.length}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [
        { index: 0, message: { role: 'assistant', content: JSON.stringify({ segments }) }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });
  return {
    url: server.url,
    requests,
    systemPrompts,
    breakStructure(n: number) {
      breaks += n;
    },
    ...knobControls(knobs),
    close: server.close,
  };
}

/**
 * A page using every kind of markdown a translation must handle (for the segmenter's tests and
 * end-to-end runs): headings, lists, a quote with a hard break, a table, fenced and indented code,
 * inline code, links to /pages/<id> and outside with titles, an image, autolinks, inline HTML, front
 * matter, math, GitBook's hint (without blank lines), tabs, content-ref, embed and OpenAPI blocks,
 * footnotes and references.
 */
export const RICH_MARKDOWN = `---
description: Front matter stays as it is
layout: wide
---

# Getting started with the *workspace* {#start}

Welcome to the docs. Read [the guide](/pages/abc123 "Guide title") and [the site](https://example.com/x?a=1&b=2 'T').
This second line is a soft break with \`inline code\` and a <span class="badge" data-x="1">badge text</span>.

{% hint style="info" %}
A hint written **without** blank lines.
{% endhint %}

{% tabs %}
{% tab title="First tab" %}
Content of the first tab.
{% endtab %}

{% tab title="Second tab" %}
\`\`\`bash
# Not a heading: npm install [not a link](/pages/x)
npm install
\`\`\`
{% endtab %}
{% endtabs %}

> Quoted text on
> two lines with a hard break  
> and a third line.

- Item one
- Item two with ![an image](/files/img1 "Image title") inside
  - Nested item with <https://auto.example.com> and https://bare.example.com
  - Second nested item
1. Ordered *emphasis* and ~~struck~~ and **[bold link](/pages/def)** text

| Name | Description |
| ---- | ----------- |
| \`id\` | The page's id \\| with an escaped pipe |
| Foo  | Bar & baz &amp; entities |

\`\`\`js
// # Not a heading
const x = '[not a link](/pages/x)';
\`\`\`

    indented code block
    stays as it is

Inline math $a^2 + b^2$ costs $5 and $10, and display math:

$$
E = mc^2
$$

{% content-ref url="/pages/xyz" %}
[Next page](/pages/xyz)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=abc_def_ghi" %}
Caption of the embed
{% endembed %}

{% openapi-operation spec="pets" path="/pets" method="get" %}
[Pets API](https://example.com/openapi.yaml)
{% endopenapi-operation %}

A footnote reference[^1], a [full reference][ref] and a [ref] shortcut. Use <code class="expression">space.vars.name</code> here.

[ref]: https://example.com/ref "Reference title"

[^1]: The footnote text.

<div align="center">
<p>An HTML block stays as it is</p>
</div>

Escaped \\*stars\\* and a literal ⟦9⟧ bracket.
A line ending with a backslash\\
and the next line.
`;

/** What a translation must leave byte-exact, read from a parse of the markdown (compare input and output). */
export function verbatimParts(markdown: string) {
  const parts: Record<string, string[]> = {
    code: [],
    inlineCode: [],
    html: [],
    links: [],
    images: [],
    definitions: [],
    footnotes: [],
  };
  const visit = (node: Nodes) => {
    if (node.type === 'code') parts.code!.push(`${node.lang} ${node.meta} ${node.value}`);
    if (node.type === 'inlineCode') parts.inlineCode!.push(node.value);
    if (node.type === 'html') parts.html!.push(node.value);
    if (node.type === 'link') parts.links!.push(`${node.url} ${node.title}`);
    if (node.type === 'image') parts.images!.push(`${node.url} ${node.alt} ${node.title}`);
    if (node.type === 'definition') parts.definitions!.push(`${node.identifier} ${node.url} ${node.title}`);
    if (node.type === 'footnoteReference') parts.footnotes!.push(node.identifier);
    if ('children' in node) for (const child of node.children) visit(child as Nodes);
  };
  visit(parseMarkdown(markdown));
  parts.liquidTags = markdown.match(/\{%[^%]*%\}/g) ?? [];
  parts.math = markdown.match(/\$\$[\s\S]*?\$\$|\$[^\s$][^$\n]*?[^\s\\]\$(?!\d)/g) ?? [];
  // Lines that are structure only: table separators, fences, block tags, front matter markers.
  parts.structureLines = markdown.split('\n').filter((l) => /^(\s*\|[\s|:-]+\||\s*```.*|\s*\{%.*%\}\s*|---)$/.test(l));
  return parts;
}
