import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { ContentDoc } from '../../shared/doc';
import { SYNC_BASE_PATH, syncRoom } from '../../shared/sync-contract';
import type { RunningServer } from './compiled-server';
import { waitFor } from './wait';

/**
 * Content for a test server, written the way a script writes it (docs/api-and-authoring.md "Write
 * content with curl"): a change request, batches of `insert_page`/`update_page` changes, a merge. A merge is a
 * revision at once, so REST, search, PDFs and published sites serve the pages when it returns.
 *
 * What REST cannot write — a page group, or a body whose first line is a `# Heading` (REST reads
 * that as the page's title, as Git sync does) — is written as a person in the app writes it: an
 * edit of the space's document over the sync socket (`editLive`).
 */

/** A page to write. Bodies are markdown; a function gets the ids of every page of the batch (for `/pages/<id>` links). */
export interface SeedPage {
  /** The name the page's id is returned under (default: its title). */
  ref?: string;
  title: string;
  markdown?: string | ((ids: Record<string, string>) => string);
  /** The ref of the parent page (another page of the same list). */
  parent?: string;
  slug?: string;
  description?: string;
  emoji?: string;
  hidden?: boolean;
  /** An adaptive-content condition (published sites show the page only to visitors who pass it). */
  condition?: string;
}

/** A file to add with the pages (bodies link it as `/files/<id>`, its id under `ref`). */
export interface SeedFile {
  ref: string;
  name: string;
  contentType: string;
  base64: string;
}

/** Ids of written pages (and files) by ref. */
export type PageIds = Record<string, string>;

interface BatchAnswer {
  /** Each touched page (`?compat=false`): created and updated ones as `{object: "page", id, urls}`. */
  changes: { object: string; page: { id: string } | string; ref?: string }[];
  insertedFiles?: { id: string; name: string }[];
}

/** A JSON call to the server's /v1 API as `token`; throws with the status and body unless it succeeds. */
export async function callApi<T>(
  server: Pick<RunningServer, 'url'>,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Sends `changes` to the change request in batches of 50 (the API's limit); the pages each created. */
async function sendBatches(
  server: RunningServer,
  token: string,
  spaceId: string,
  crId: string,
  changes: object[],
): Promise<Required<BatchAnswer>> {
  const out: Required<BatchAnswer> = { changes: [], insertedFiles: [] };
  for (let i = 0; i < changes.length; i += 50) {
    const answer = await callApi<BatchAnswer>(
      server,
      token,
      'POST',
      `/spaces/${spaceId}/change-requests/${crId}/content?compat=false`,
      { changes: changes.slice(i, i + 50) },
    );
    out.changes.push(...answer.changes);
    out.insertedFiles.push(...(answer.insertedFiles ?? []));
  }
  return out;
}

/** A body REST would not store as given: a leading `# Heading` or front matter becomes page metadata. */
function refuseMetadataBody(page: SeedPage, markdown: string): void {
  if (/^(?:\s*\n)*(?:# |---\r?\n)/.test(markdown))
    throw new Error(
      `seedPages: the body of "${page.title}" starts with a # heading or front matter, which REST reads as the page's ` +
        'title or metadata (Git sync’s rule): start it otherwise, or write it with editLive',
    );
}

/**
 * Writes `pages` into the space through one change request (created, filled, merged) as `token`
 * (the admin by default); resolves with their ids by ref once the merge is the space's revision.
 * All pages are created first, then given their place and body, so a body may link to any of
 * them by relative `.md` path, slug path or `/pages/<id>` (through a function body).
 */
export async function seedPages(
  server: RunningServer,
  spaceId: string,
  pages: SeedPage[],
  options: { token?: string; subject?: string; files?: SeedFile[] } = {},
): Promise<PageIds> {
  const token = options.token ?? server.adminToken;
  const files = options.files ?? [];
  const cr = await callApi<{ id: string }>(server, token, 'POST', `/spaces/${spaceId}/change-requests`, {
    subject: options.subject ?? 'Add the pages',
  });
  const refs = pages.map((p) => p.ref ?? p.title);
  if (new Set(refs).size !== refs.length) throw new Error(`seedPages: two pages share a ref (${refs.join(', ')})`);
  const created = await sendBatches(server, token, spaceId, cr.id, [
    ...(files.length > 0
      ? [
          {
            operation: 'insert_files',
            files: files.map((f) => ({ name: f.name, contentType: f.contentType, base64: f.base64 })),
          },
        ]
      : []),
    ...pages.map((p, i) => ({
      operation: 'insert_page',
      ref: refs[i],
      title: p.title,
      ...(p.slug !== undefined ? { slug: p.slug } : {}),
      ...(p.description !== undefined ? { description: p.description } : {}),
      ...(p.emoji !== undefined ? { emoji: p.emoji } : {}),
      ...(p.hidden !== undefined ? { hidden: p.hidden } : {}),
      ...(p.condition !== undefined ? { condition: p.condition } : {}),
      document: { markdown: '' },
    })),
  ]);
  const ids: PageIds = {};
  for (const f of files) {
    const stored = created.insertedFiles.find((i) => i.name === f.name);
    if (!stored) throw new Error(`seedPages: the file ${f.name} was not stored`);
    ids[f.ref] = stored.id;
  }
  for (const c of created.changes)
    if (c.object === 'created_page' && c.ref !== undefined)
      ids[c.ref] = typeof c.page === 'string' ? c.page : c.page.id;
  const updates = pages.flatMap((p, i) => {
    const markdown = typeof p.markdown === 'function' ? p.markdown(ids) : p.markdown;
    if (markdown !== undefined) refuseMetadataBody(p, markdown);
    if (p.parent !== undefined && !ids[p.parent])
      throw new Error(`seedPages: no page "${p.parent}" before "${p.title}"`);
    if (markdown === undefined && p.parent === undefined) return [];
    return [
      {
        operation: 'update_page',
        page: ids[refs[i]!],
        ...(p.parent !== undefined ? { into: ids[p.parent] } : {}),
        ...(markdown !== undefined ? { document: { markdown } } : {}),
      },
    ];
  });
  if (updates.length > 0) await sendBatches(server, token, spaceId, cr.id, updates);
  await callApi(server, token, 'POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`);
  return ids;
}

/**
 * Changes pages of the space through one change request (update_page changes, e.g.
 * `{page, document: {markdown}}`), merged: one new revision of the space.
 */
export async function updatePages(
  server: RunningServer,
  spaceId: string,
  changes: { page: string; markdown?: string; title?: string }[],
  options: { token?: string; subject?: string } = {},
): Promise<void> {
  const token = options.token ?? server.adminToken;
  const cr = await callApi<{ id: string }>(server, token, 'POST', `/spaces/${spaceId}/change-requests`, {
    subject: options.subject ?? 'Update the pages',
  });
  await sendBatches(
    server,
    token,
    spaceId,
    cr.id,
    changes.map((c) => {
      if (c.markdown !== undefined) refuseMetadataBody({ title: c.page }, c.markdown);
      return {
        operation: 'update_page',
        page: c.page,
        ...(c.title !== undefined ? { title: c.title } : {}),
        ...(c.markdown !== undefined ? { document: { markdown: c.markdown } } : {}),
      };
    }),
  );
  await callApi(server, token, 'POST', `/spaces/${spaceId}/change-requests/${cr.id}/merge`);
}

interface RestPage {
  id: string;
  pages?: RestPage[];
}

/** Every page id of the space's current revision (REST). */
async function revisionPageIds(server: RunningServer, spaceId: string): Promise<Set<string>> {
  const revision = await callApi<{ pages: RestPage[] }>(server, server.adminToken, 'GET', `/spaces/${spaceId}/content`);
  const ids = new Set<string>();
  const walk = (list: RestPage[]) => {
    for (const p of list) {
      ids.add(p.id);
      walk(p.pages ?? []);
    }
  };
  walk(revision.pages);
  return ids;
}

/**
 * Edits the space's content document as the app does, over the sync socket (the stock
 * y-websocket provider) as `token` (the admin by default), and resolves with what `edit` returned
 * once REST serves a revision holding every page of the document (the server makes one after
 * FOLIO_REVISION_QUIET_MS of quiet: keep it short in files that use this).
 */
export async function editLive<T>(
  server: RunningServer,
  spaceId: string,
  edit: (content: ContentDoc) => T,
  options: { token?: string; timeoutMs?: number } = {},
): Promise<T> {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(
    `${server.url.replace(/^http/, 'ws')}${SYNC_BASE_PATH}`,
    syncRoom({ spaceId, kind: 'content' }),
    doc,
    {
      WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
      params: { token: options.token ?? server.adminToken },
      // Node has a BroadcastChannel: clients of one test process would sync behind the server's back.
      disableBc: true,
    },
  );
  try {
    await waitFor(() => provider.synced, 15_000, `the sync of space ${spaceId}`);
    let result!: T;
    doc.transact(() => (result = edit(new ContentDoc(doc))));
    const expected = new ContentDoc(doc).listPageIds();
    await waitFor(
      async () => {
        const served = await revisionPageIds(server, spaceId);
        return expected.every((id) => served.has(id));
      },
      options.timeoutMs ?? 15_000,
      `a revision of space ${spaceId} with the live edit`,
      50,
    );
    return result;
  } finally {
    provider.destroy();
    doc.destroy();
  }
}
