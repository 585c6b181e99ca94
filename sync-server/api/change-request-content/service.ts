import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError } from '../../http/errors';
import { crContentDoc } from '../../../shared/sync-contract';
import { findChangeRequest, type ChangeRequestRow } from '../../store/change-requests';
import { presentFull, requireChangeRequest } from '../change-requests/service';
import { presentFile } from '../content/present';
import { planBatch, type PageOutcome, type PreparedFile } from './apply';
import { applyToLiveDocument } from './apply-live';
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
  // File bytes are staged: they reach the blob store only if the batch applies (see files.ts).
  const staged = await prepareFiles(ctx, organizationId, changes, plan);
  // Page bodies are diffed off the event loop before the one change that applies the batch (apply-live.ts).
  const outcomes = await staged.commit(() =>
    applyToLiveDocument(ctx, crContentDoc(cr.id), changes, plan, {
      origin: { userId: p.userId, reason: 'content-update' },
      onApplied: () => staged.promote(),
    }),
  );
  return { outcomes, files: staged.files };
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
