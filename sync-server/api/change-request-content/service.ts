import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError } from '../../http/errors';
import { crContentDoc } from '../../../shared/sync-contract';
import { findChangeRequest, type ChangeRequestRow } from '../../store/change-requests';
import { presentFull, requireChangeRequest } from '../change-requests/service';
import { presentFile } from '../content/present';
import { applyBatchAtomically, planBatch, type PageOutcome, type PreparedFile } from './apply';
import { BatchError } from './apply-error';
import { loadDocumentMarkdown } from './document-markdown';
import { prepareFiles } from './files';
import { loadRevertSources } from './revert-sources';
import { validateChanges } from './schemas';

/** Validates, prepares and applies the batch (BatchError on a refused change; the document is then untouched). */
async function applyRequest(
  ctx: AppContext,
  p: Principal,
  cr: ChangeRequestRow,
  organizationId: string,
  raw: { operation: string }[],
): Promise<{ outcomes: PageOutcome[]; files: PreparedFile[] }> {
  const changes = validateChanges(raw);
  const plan = planBatch(changes);
  await loadDocumentMarkdown(changes);
  await loadRevertSources(ctx, cr, changes, plan);
  const files = await prepareFiles(ctx, organizationId, changes, plan);
  const now = () => ctx.clock.now();
  let outcomes: PageOutcome[] = [];
  await ctx.hub.change(
    crContentDoc(cr.id),
    (doc) => {
      outcomes = applyBatchAtomically(doc, changes, plan, now);
    },
    { userId: p.userId, reason: 'content-update' },
  );
  return { outcomes, files };
}

/**
 * updateChangeRequestContent: validate the whole batch, prepare what needs
 * I/O (revert sources, file bytes), then apply it as ONE server-side change
 * of the change request's live document (hub.change: committed before any
 * collaborator sees it, then broadcast like a keystroke), and cut one
 * revision. A refused change leaves the document untouched.
 */
export async function updateChangeRequestContent(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  idOrNumber: string,
  body: { changes: { operation: string }[] },
  compat: boolean,
) {
  const { cr, actor, row: space } = await requireChangeRequest(ctx, p, spaceId, idOrNumber, 'edit-content');
  const { outcomes, files } = await applyRequest(ctx, p, cr, space.organization_id, body.changes).catch((err) => {
    throw err instanceof BatchError ? new ApiError(err.status, err.message) : err;
  });
  await ctx.snapshots.reviseChangeRequest(cr.id, { userId: p.userId });
  await ctx.db.query('UPDATE change_requests SET updated_at = $2 WHERE id = $1', [cr.id, ctx.clock.now()]);
  const changeRequest = await presentFull(ctx, actor, (await findChangeRequest(ctx.db, spaceId, cr.id))!);
  if (compat) return changeRequest;
  const pageUrl = (id: string) => ctx.urls.api(`/spaces/${spaceId}/change-requests/${cr.id}/content/page/${id}`);
  return {
    changeRequest,
    changes: outcomes.map((o) =>
      o.object === 'deleted_page'
        ? o
        : { ...o, page: { object: 'page' as const, id: o.page, urls: { location: pageUrl(o.page) } } },
    ),
    ...(files.length > 0
      ? {
          insertedFiles: files.map((f) =>
            presentFile(ctx.storage, { id: f.id, ...f.meta, sha256: f.meta.sha256! }, spaceId),
          ),
        }
      : {}),
  };
}
