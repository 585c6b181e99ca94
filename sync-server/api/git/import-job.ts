import type { AppContext } from '../../context';
import { ContentDoc } from '../../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../../shared/sync-contract';
import { JobError, type JobKind } from '../../jobs/runner';
import type { Baseline, RepoFile, RepoPage } from '../../git-sync/layout';
import { saveGitSynced } from '../../store/git-sync';
import type { StoredPage } from '../../docs/revision-store';
import { loadSpaceRow } from '../../store/spaces';
import { planBatch } from '../change-request-content/apply';
import { applyToLiveDocument } from '../change-request-content/apply-live';
import type { ContentChange } from '../change-request-content/schemas';
import { stageImportFiles } from '../content-import/stage-files';
import { createChangeRequest } from '../change-requests/service';
import { repoAccess } from './access';
import { GIT_IMPORT_JOB, type GitJobPayload } from './job-payload';
import { planImport, type ImportPlan } from './import-plan';
import { applyBodies, takeBodies, type BodyOutcome, type BodyUpdate } from './live-merge';
import { applyAssetChanges, assetChangesOf } from './import-assets';
import { applyFormerPaths, formerPathsToAdd } from './import-redirects';
import { asJobError, failureMessage, isStale, startOperation } from './operation-log';
import { GIT_OPERATION_TIMEOUT_MS } from './present';
import { contentTypeOf } from '../../import/media-types';
import { principalOf } from './principal';

/** What an import leaves on its job. */
export interface ImportOutcome {
  commit: string | null;
  revision: string | null;
  changed: number;
  conflicts: number;
  changeRequest?: string;
  warnings: string[];
  skipped?: 'stale';
}

/** A batch's body for a page: its title as the leading heading, so the batch takes the body exactly as given. */
const documentOf = (title: string, body: string) => ({ markdown: `# ${title.replace(/\r?\n/g, ' ')}\n\n${body}` });

/** Pages with `document` rewritten so the batch reads them verbatim (see documentOf), parents resolved by ref. */
function batchChanges(plan: ImportPlan, titles: ReadonlyMap<string, string>): ContentChange[] {
  return plan.changes.map((c) => {
    const change = { ...c } as Record<string, unknown>;
    const doc = change.document as { markdown: string } | undefined;
    if (doc) {
      const title =
        (change.title as string | undefined) ??
        (change.page ? titles.get(change.page as string) : undefined) ??
        'Untitled';
      change.document = documentOf(title, doc.markdown);
      change.title = title;
    }
    return change as unknown as ContentChange;
  });
}

/** Sets `into: {ref}` (a parent inserted in the same batch) to the id the plan chose for it. */
function resolveParents(changes: ContentChange[], plan: ReturnType<typeof planBatch>): void {
  const indexOfRef = new Map<string, number>();
  changes.forEach((c, i) => c.operation === 'insert_page' && c.ref !== undefined && indexOfRef.set(c.ref, i));
  for (const c of changes) {
    const into = (c as { into?: unknown }).into;
    if (into && typeof into === 'object') {
      const ref = (into as { ref: string }).ref;
      (c as { into?: string }).into = plan.newPages.get(indexOfRef.get(ref)!);
    }
  }
}

/**
 * The import job: read the branch, read it with the layout codec against the last sync's baseline,
 * and apply to the space only what changed in the repository since (import-plan.ts) as one change
 * of its live document, then one revision. Pages changed on both sides go to a change request
 * with the repository's version. An unchanged branch changes nothing.
 */
export function gitImportJob(ctx: AppContext): JobKind<GitJobPayload, ImportOutcome> {
  return {
    kind: GIT_IMPORT_JOB,
    maxAttempts: 3,
    timeoutMs: GIT_OPERATION_TIMEOUT_MS,
    async run({ job, signal }) {
      const payload = job.payload;
      const { row, record } = await startOperation(ctx, payload, 'import');
      const ended = () => ctx.clock.now().toISOString();
      if (isStale(row, payload)) {
        await record({ state: 'success', endedAt: ended() });
        return { commit: row.last_commit, revision: null, changed: 0, conflicts: 0, warnings: [], skipped: 'stale' };
      }
      try {
        // Git and the layout codec load with the first sync, not at boot.
        const [{ readBranch }, { bindIds, readRepository }] = await Promise.all([
          import('../../git-sync/transport'),
          import('../../git-sync/layout'),
        ]);
        const branch = await readBranch(repoAccess(ctx, row, signal));
        if (!branch.commit)
          throw new JobError(
            'NOT_FOUND',
            `The repository has no branch ${row.ref} (or it is empty): nothing to import`,
          );
        const previous = (row.baseline ?? undefined) as Baseline | undefined;
        const read = readRepository(branch.files, previous, { projectDirectory: row.project_directory });
        const space = await loadSpaceRow(ctx.db, payload.spaceId);
        const revision = space && (await ctx.revisions.get(space.revision));
        if (!space || !revision) throw new JobError('NOT_FOUND', 'The space or its content no longer exists');
        if (!previous && revision.pages.length > 0 && !payload.force)
          throw new JobError(
            'NOT_EMPTY',
            'This space has pages and has never been synced with this repository: import with "force" to replace its pages with the repository\'s',
          );
        const plan = planImport(read.pages, previous, revision.pages, { force: payload.force });
        // Bodies of existing pages are merged with their live text (live-merge.ts), not set by the batch.
        const bodies = takeBodies(plan);
        let merged: BodyOutcome = { merged: new Set(), conflicts: new Set() };
        const titles = pageTitles(revision.pages);
        // Standalone: a revision apart from the space's content, i.e. a change request of it.
        const standalone = payload.standalone
          ? (
              await createChangeRequest(ctx, await principalOf(ctx, payload.userId), payload.spaceId, {
                subject: `Git import of ${row.ref.replace(/^refs\/heads\//, '')} (standalone)`,
              })
            ).id
          : undefined;
        const target = standalone ? { changeRequestId: standalone } : {};
        const extraWarnings: string[] = [];
        const written = await writeToSpace(ctx, payload, plan, read.files, titles, target, async (docName, ids) => {
          merged = await applyBodies(ctx, docName, bodies, previous, { force: payload.force, userId: payload.userId });
          // Then, before the revision: assets changed or deleted in the repository, and its redirects.
          const assets = assetChangesOf(read);
          extraWarnings.push(
            ...(await applyAssetChanges(ctx, payload.organizationId, docName, assets, payload.userId)),
          );
          await applyFormerPaths(ctx, docName, formerPathsToAdd(read.redirects, ids), payload.userId);
        });
        const repoPages = repoPagesById(read.pages);
        for (const id of merged.conflicts) if (repoPages.has(id)) plan.conflicts.push(repoPages.get(id)!);
        let baseline = bindIds(read.baseline, written.ids);
        baseline = await withStoredBodies(
          ctx,
          baseline,
          payload.spaceId,
          writtenPages(bodies, written.ids, plan, merged),
        );
        const changeRequest =
          plan.conflicts.length > 0 ? await conflictRequest(ctx, payload, plan.conflicts, row.ref) : undefined;
        // Pages in conflict keep the space's version: the baseline must not claim the repository's.
        if (plan.conflicts.length > 0) baseline = withoutPages(baseline, previous, plan.conflicts);
        if (!payload.standalone)
          await saveGitSynced(ctx.db, payload.spaceId, {
            baseline,
            commit: branch.commit,
            timestamp: payload.timestamp ? new Date(payload.timestamp) : null,
          });
        await record({
          state: 'success',
          endedAt: ended(),
          commit: branch.commit,
          ...(written.revision ? { revision: written.revision } : {}),
          ...((changeRequest ?? standalone) ? { changeRequest: changeRequest ?? standalone } : {}),
        });
        return {
          commit: branch.commit,
          revision: written.revision ?? null,
          changed: plan.changes.length,
          conflicts: plan.conflicts.length,
          ...((changeRequest ?? standalone) ? { changeRequest: changeRequest ?? standalone } : {}),
          warnings: [
            ...read.warnings,
            ...plan.keptEdited.map((id) => `Page ${id} was deleted in the repository but edited here: it was kept`),
            ...extraWarnings,
          ],
        };
      } catch (err) {
        await record({ state: 'failure', endedAt: ended(), error: failureMessage(err) });
        throw asJobError(err);
      }
    },
  };
}

interface WrittenImport {
  revision: string | undefined;
  /** Ids of what the import created, by their key in the baseline (page key, file path). */
  ids: Map<string, string>;
}

/** Applies the plan to the space (or, standalone, to a new change request) as one change, then one revision. */
async function writeToSpace(
  ctx: AppContext,
  payload: GitJobPayload,
  plan: ImportPlan,
  files: readonly RepoFile[],
  titles: ReadonlyMap<string, string>,
  target: { changeRequestId?: string },
  after?: (docName: string, ids: ReadonlyMap<string, string>) => Promise<void>,
): Promise<WrittenImport> {
  const newFiles = files.filter((f) => f.id === undefined);
  const changes = batchChanges(plan, titles);
  if (newFiles.length > 0)
    changes.unshift({
      operation: 'insert_files',
      files: newFiles.map((f) => ({ ref: f.path, name: f.name, contentType: contentTypeOf(f.name) })),
    });
  const name = target.changeRequestId ? crContentDoc(target.changeRequestId) : spaceContentDoc(payload.spaceId);
  if (changes.length === 0) {
    await after?.(name, new Map());
    return { revision: await revise(ctx, payload, target), ids: new Map() };
  }
  const batch = planBatch(changes);
  resolveParents(changes, batch);
  const staged = await stageImportFiles(
    ctx,
    payload.organizationId,
    newFiles.map((f) => ({
      ref: f.path,
      name: f.name,
      contentType: contentTypeOf(f.name),
      bytes: Buffer.from(f.bytes),
    })),
    0,
    batch,
  );
  const indexOfRef = new Map<string, number>();
  changes.forEach((c, i) => c.operation === 'insert_page' && c.ref !== undefined && indexOfRef.set(c.ref, i));
  await staged.commit(() =>
    applyToLiveDocument(ctx, name, changes, batch, {
      origin: { userId: payload.userId, reason: 'git-import' },
      onApplied: () => {
        staged.promote();
        setKinds(ctx, name, plan, (ref) => batch.newPages.get(indexOfRef.get(ref)!));
      },
    }),
  );
  const ids = new Map<string, string>();
  for (const ref of plan.newPageRefs) {
    const id = batch.newPages.get(indexOfRef.get(ref)!);
    if (id) ids.set(ref, id);
  }
  for (const f of newFiles) {
    const id = batch.refs.files.get(f.path);
    if (id) ids.set(f.path, id);
  }
  await after?.(name, ids);
  return { revision: await revise(ctx, payload, target), ids };
}

/**
 * Makes new pages groups or links, inside the batch's change (a batch inserts documents only), on
 * the live document that change is writing, so readers never see them as documents.
 */
function setKinds(ctx: AppContext, name: string, plan: ImportPlan, idOf: (ref: string) => string | undefined): void {
  if (plan.kinds.length === 0) return;
  const live = ctx.hub.loadedDoc(name);
  if (!live) throw new Error(`The document ${name} was unloaded while the import was written`);
  const content = new ContentDoc(live.doc, { now: () => ctx.clock.now() });
  for (const k of plan.kinds) {
    const id = idOf(k.ref);
    if (id) content.updatePage(id, { kind: k.kind, ...(k.href ? { href: k.href } : {}) });
  }
}

/** A change request holding the repository's version of the pages changed on both sides. */
async function conflictRequest(
  ctx: AppContext,
  payload: GitJobPayload,
  conflicts: readonly RepoPage[],
  ref: string,
): Promise<string> {
  const principal = await principalOf(ctx, payload.userId);
  const cr = await createChangeRequest(ctx, principal, payload.spaceId, {
    subject: `Git import: ${conflicts.length} page${conflicts.length === 1 ? '' : 's'} changed both here and on ${ref.replace(/^refs\/heads\//, '')}`,
  });
  const plan: ImportPlan = { changes: [], newPageRefs: [], conflicts: [], kinds: [], keptEdited: [] };
  for (const r of conflicts)
    plan.changes.push({
      operation: 'update_page',
      page: r.id!,
      title: r.title || 'Untitled',
      ...(r.kind === 'document' ? { document: { markdown: r.markdown } } : {}),
    } as ContentChange);
  await writeToSpace(ctx, payload, plan, [], new Map(), { changeRequestId: cr.id });
  return cr.id;
}

/** The baseline with conflicting pages as they were at the previous sync (the space kept its version). */
function withoutPages(baseline: Baseline, previous: Baseline | undefined, conflicts: readonly RepoPage[]): Baseline {
  const ids = new Set(conflicts.map((c) => c.id));
  const before = new Map((previous?.pages ?? []).map((p) => [p.id, p]));
  return { ...baseline, pages: baseline.pages.map((p) => (p.id && ids.has(p.id) ? (before.get(p.id) ?? p) : p)) };
}

/** Current page titles by id (an update of the body alone keeps the page's title). */
function pageTitles(pages: readonly StoredPage[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (list: readonly StoredPage[]) => {
    for (const p of list) {
      out.set(p.id, String(p.title ?? ''));
      walk(p.pages ?? []);
    }
  };
  walk(pages);
  return out;
}

/** The pages whose body this import wrote as the repository has it: updated (not merged with live edits), or created. */
function writtenPages(
  bodies: readonly BodyUpdate[],
  ids: ReadonlyMap<string, string>,
  plan: ImportPlan,
  outcome: BodyOutcome,
): Set<string> {
  const out = new Set<string>();
  for (const b of bodies) if (!outcome.merged.has(b.pageId) && !outcome.conflicts.has(b.pageId)) out.add(b.pageId);
  for (const ref of plan.newPageRefs) if (ids.has(ref)) out.add(ids.get(ref)!);
  return out;
}

/**
 * The baseline with the bodies the space now stores for the pages this import wrote: the batch
 * stores links in its canonical form (`/pages/<id>`, `/files/<id>`), and the next comparison must
 * see the page as unchanged until someone edits it. Lines keep their number (only links differ), so
 * the baseline's line mapping to the file's text still holds.
 */
async function withStoredBodies(
  ctx: AppContext,
  baseline: Baseline,
  spaceId: string,
  written: ReadonlySet<string>,
): Promise<Baseline> {
  if (written.size === 0) return baseline;
  const space = await loadSpaceRow(ctx.db, spaceId);
  const revision = space && (await ctx.revisions.get(space.revision));
  if (!revision) return baseline;
  const bodies = new Map<string, string>();
  const walk = (list: readonly StoredPage[]) => {
    for (const p of list) {
      if (written.has(p.id) && typeof p.markdown === 'string') bodies.set(p.id, p.markdown);
      walk(p.pages ?? []);
    }
  };
  walk(revision.pages);
  return {
    ...baseline,
    pages: baseline.pages.map((p) => (p.id && bodies.has(p.id) ? { ...p, markdown: bodies.get(p.id)! } : p)),
  };
}

/** The repository's pages that have an id in the space, by id. */
function repoPagesById(pages: readonly RepoPage[]): Map<string, RepoPage> {
  const out = new Map<string, RepoPage>();
  const walk = (list: readonly RepoPage[]) => {
    for (const p of list) {
      if (p.id !== undefined) out.set(p.id, p);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}

/** Cuts the revision holding what the import wrote (none when nothing changed). */
function revise(ctx: AppContext, payload: GitJobPayload, target: { changeRequestId?: string }) {
  return target.changeRequestId
    ? ctx.snapshots.reviseChangeRequest(target.changeRequestId, { userId: payload.userId })
    : ctx.snapshots.revise(payload.spaceId, { userId: payload.userId });
}
