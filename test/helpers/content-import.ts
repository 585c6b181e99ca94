import { expect } from 'vitest';
import type { RevisionPage } from '@gitbook/api';
import { ok, raw } from './api';
import type { TestServer } from './server';

/**
 * What the content-import suites share: reading a space's tree as titles, a page's markdown,
 * uploading a file for a `file` source, and starting a run through the official client.
 */

export const pagesOf = async (t: TestServer, spaceId: string) =>
  (await ok('listPages', t.client.spaces.listPages(spaceId))).pages as RevisionPage[];

/** The tree as titles: a page with child pages is `[title, [children…]]`. */
export const titles = (list: RevisionPage[]): unknown[] =>
  list.map((p) => ('pages' in p && p.pages.length ? [p.title, titles(p.pages as RevisionPage[])] : p.title));

/** Every page of the tree, depth first. */
export const allPages = (list: RevisionPage[]): RevisionPage[] =>
  list.flatMap((p) => [p, ...('pages' in p ? allPages(p.pages as RevisionPage[]) : [])]);

export const pageByTitle = async (t: TestServer, spaceId: string, title: string) =>
  allPages(await pagesOf(t, spaceId)).find((p) => p.title === title)!;

export const markdownOf = async (t: TestServer, spaceId: string, pageId: string) =>
  (
    (await ok('getPageById', t.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' }))) as {
      markdown: string;
    }
  ).markdown;

/** Uploads a file for an import (generateStorageUploadURL, kind import_file); answers its key. */
export async function uploadImportFile(
  t: TestServer,
  orgId: string,
  name: string,
  type: string,
  body: Buffer,
): Promise<string> {
  const slot = (
    await raw(t, 'POST', `/v1/orgs/${orgId}/storage/upload`, {
      token: t.adminToken,
      body: { file: { name, type, size: body.length }, kind: 'import_file' },
    })
  ).body as { url: string; key: string };
  expect((await fetch(slot.url, { method: 'PUT', body: new Uint8Array(body) })).status).toBe(200);
  return slot.key;
}

/** A run's counts and skipped resources (Folio's fields beside GitBook's ContentImportRun). */
export interface RunCounts {
  totalPages?: number;
  importedPages?: number;
  skippedPages?: number;
  totalFiles?: number;
  importedFiles?: number;
  skippedFiles?: number;
  skipped?: { source: string; code: string; message: string }[];
}

/** startImportRun then drain the runner: the ended run, validated against GitBook's schema. */
export async function runImport(
  t: TestServer,
  orgId: string,
  body: Parameters<TestServer['client']['org']['startImportRun']>[1],
) {
  const run = await ok('startImportRun', t.client.org.startImportRun(orgId, body), 201);
  await t.server.ctx.jobRunner.drain();
  return (await ok('getImportRun', t.client.org.getImportRun(orgId, run.id))) as Awaited<
    ReturnType<TestServer['client']['org']['getImportRun']>
  >['data'] &
    RunCounts;
}
