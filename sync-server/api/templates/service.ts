import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest } from '../../http/errors';
import { crContentDoc, spaceContentDoc } from '../../../shared/sync-contract';
import { flattenPages, fillPlaceholders } from '../../templates/expand';
import { findTemplate, TEMPLATES } from '../../templates/catalogue';
import { planBatch } from '../change-request-content/apply';
import { applyToLiveDocument } from '../change-request-content/apply-live';
import type { ContentChange } from '../change-request-content/schemas';
import { requireChangeRequest } from '../change-requests/service';
import { requireSpace } from '../spaces/service';
import { resolveContentRefs } from './content-refs';
import { presentTemplate } from './present';
import type { ApplyTemplateBody } from './schemas';

export function listTemplates() {
  return { items: TEMPLATES.map(presentTemplate) };
}

/** Where the template's pages go: the space's main content, or a change request's. */
async function targetOf(ctx: AppContext, p: Principal, spaceId: string, changeRequestId: string | undefined) {
  if (changeRequestId === undefined) {
    const { row } = await requireSpace(ctx, p, spaceId, 'edit-content');
    return {
      organizationId: row.organization_id,
      doc: spaceContentDoc(spaceId),
      revise: () => ctx.snapshots.revise(spaceId, { userId: p.userId }),
    };
  }
  const { row, cr } = await requireChangeRequest(ctx, p, spaceId, changeRequestId, 'edit-content');
  return {
    organizationId: row.organization_id,
    doc: crContentDoc(cr.id),
    revise: () => ctx.snapshots.reviseChangeRequest(cr.id, { userId: p.userId }),
  };
}

/**
 * applyTemplateToSpace: the template's pages are appended after the pages
 * already there (which are kept), in ONE server-side change of the live
 * document (collaborators see them appear at once), then one revision is cut.
 * Pages are inserted by the same batch machinery as updateChangeRequestContent.
 */
export async function applyTemplate(ctx: AppContext, p: Principal, spaceId: string, body: ApplyTemplateBody) {
  const template = findTemplate(body.id);
  // The body schema's enum already refuses unknown ids; this guards a catalogue/schema mismatch.
  if (!template) throw badRequest(`body.id: unknown template "${body.id}"`);
  const target = await targetOf(ctx, p, spaceId, body.changeRequestId);
  const { refs, operations } = await resolveContentRefs(
    ctx,
    template,
    body.params?.contentRefs ?? {},
    target.organizationId,
  );

  // Pages first, bodies after, in one batch: a body's links resolve against the page tree as it is
  // when the body is set, so every page (a later sibling included) must exist by then.
  const flat = flattenPages(template);
  const inserts: ContentChange[] = flat.map(({ page }) => ({
    operation: 'insert_page',
    title: page.title,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.description ? { description: page.description } : {}),
    document: { markdown: '' },
  }));
  const plan = planBatch(inserts);
  const idAt = (i: number) => plan.newPages.get(i)!;
  flat.forEach(({ parent }, i) => {
    if (parent !== undefined) (inserts[i] as { into?: string }).into = idAt(parent);
  });
  const pageIds = new Map(flat.map(({ page }, i) => [page.ref, idAt(i)]));
  const bodies: ContentChange[] = flat.map(({ page }, i) => ({
    operation: 'update_page',
    page: idAt(i),
    document: { markdown: fillPlaceholders(template, page.markdown, { pageIds, refs, operations }) },
  }));
  const changes = [...inserts, ...bodies];

  await applyToLiveDocument(ctx, target.doc, changes, plan, { origin: { userId: p.userId, reason: 'template' } });
  await target.revise();
}
