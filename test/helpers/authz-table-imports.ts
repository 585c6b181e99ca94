import type { OrganizationAction } from '../../sync-server/policy/organization';
import { CONTENT_IMPORT_JOB } from '../../sync-server/store/import-runs';
import type { OperationTable } from './authz-cases';
import { ask } from './authz-expect';
import { must, type World } from './authz-fixture';
import { fresh, type Params } from './authz-fresh';

/**
 * Content import: starting a run, or content/import of a space or change request, needs
 * `edit-content` on the target (and, for runs, to see the organization); a run is seen by whoever
 * sees the organization and its target space, and cancelled by whoever may edit that space. The
 * imports read an uploaded markdown file (no outbound fetch); cancels get a run of their own that
 * never starts (queued a year ahead).
 */

const inOrg = (action: OrganizationAction) => (_w: unknown, p: Record<string, string>) => [
  ask.organization(p.organizationId!, action),
];

let counter = 0;

/** A markdown file uploaded by the admin for an import: its storage key. */
async function uploadedMarkdown(w: World): Promise<string> {
  const text = `# Imported ${++counter}\n\nBy the matrix.\n`;
  const slot = await must<{ url: string; key: string }>(w.t, 'POST', `/orgs/${w.organizationId}/storage/upload`, {
    file: { name: `matrix-${counter}.md`, type: 'text/markdown', size: Buffer.byteLength(text) },
    kind: 'import_file',
  });
  const put = await fetch(slot.url, { method: 'PUT', body: text });
  await put.arrayBuffer();
  if (!put.ok) throw new Error(`matrix: uploading a markdown file answered ${put.status}`);
  return slot.key;
}

/** The body's source: the file uploaded by the cell's params builder (bodies are built synchronously). */
const fileSource = (p: Params) => ({ type: 'file', files: [p.fileKey!] });
const withFile =
  (base: (w: World) => Promise<Params>) =>
  async (w: World): Promise<Params> => ({ ...(await base(w)), fileKey: await uploadedMarkdown(w) });

const runs = new WeakMap<World, Promise<Params>>();

/** The world's one finished run (into a fresh space, so the fixture's pages stay as they are). */
function matrixRun(w: World): Promise<Params> {
  let made = runs.get(w);
  if (!made) {
    made = (async () => {
      const spaceId = (await fresh.space(w)).spaceId!;
      const run = await must<{ id: string }>(w.t, 'POST', `/org/${w.organizationId}/imports`, {
        source: { type: 'file', files: [await uploadedMarkdown(w)] },
        target: { space: spaceId },
      });
      await w.t.server.ctx.jobRunner.drain();
      return { importRunId: run.id, runSpaceId: spaceId };
    })();
    runs.set(w, made);
  }
  return made;
}

/** A run of the fixture space that stays pending (queued a year ahead, without a subject to hold others up). */
async function pendingRun(w: World): Promise<Params> {
  const me = await must<{ id: string }>(w.t, 'GET', '/user');
  const job = await w.t.server.ctx.jobRunner.enqueue({
    kind: CONTENT_IMPORT_JOB,
    organizationId: w.organizationId,
    payload: {
      organizationId: w.organizationId,
      source: { type: 'file', files: ['matrixnever'] },
      target: { space: w.spaceId },
      createdBy: me.id,
    },
    runAfter: new Date(Date.now() + 365 * 24 * 3600_000),
  });
  return { importRunId: job.id, runSpaceId: w.spaceId };
}

export const IMPORT_OPERATIONS: OperationTable = {
  listImportRuns: {
    checks: inOrg('view'),
  },
  startImportRun: {
    params: withFile(fresh.space),
    body: (_w, p) => ({ source: fileSource(p), target: { space: p.spaceId } }),
    checks: (_w, p) => [ask.organization(p.organizationId!, 'view'), ask.space(p.spaceId!, 'edit-content')],
  },
  getImportRun: {
    params: matrixRun,
    checks: (_w, p) => [ask.organization(p.organizationId!, 'view'), ask.space(p.runSpaceId!, 'view')],
  },
  cancelImportRun: {
    params: pendingRun,
    checks: (_w, p) => [
      ask.organization(p.organizationId!, 'view'),
      ask.space(p.runSpaceId!, 'view'),
      ask.space(p.runSpaceId!, 'edit-content'),
    ],
  },
  importContent: {
    params: withFile(fresh.space),
    body: (_w, p) => ({ source: fileSource(p) }),
    checks: (_w, p) => [ask.space(p.spaceId!, 'edit-content')],
  },
  importContentInChangeRequest: {
    params: withFile(fresh.changeRequest),
    body: (_w, p) => ({ source: fileSource(p) }),
    checks: (_w, p) => [ask.changeRequest(p.spaceId!, p.changeRequestId!, 'edit-content')],
  },
};
