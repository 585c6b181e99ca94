import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import { badRequest, notFound } from '../http/errors';
import { EntityId } from '../http/schemas';
import { viewOf } from '../docs/revision-view';
import { requireChangeRequest } from '../api/change-requests/service';
import { readAs } from '../api/content/computed';
import { loadSpaceRow } from '../store/spaces';

/** How long a PDF link works. */
export const PDF_URL_TTL_MS = 60 * 60 * 1000;

const payload = (revisionId: string, pageId: string, expires: number) => `pdf:${revisionId}:${pageId}:${expires}`;

/**
 * A signed, expiring URL serving the PDF of a revision (all pages, or one
 * page and its sub-pages). Anyone holding it may download until it expires,
 * like the signed links GitBook returns.
 */
export function signedPdfUrl(ctx: AppContext, revisionId: string, pageId?: string): string {
  const { signer } = ctx.storage;
  const expires = Math.floor((ctx.clock.now().getTime() + PDF_URL_TTL_MS) / 1000);
  const query = new URLSearchParams({
    ...(pageId ? { page: pageId } : {}),
    expires: String(expires),
    signature: signer.sign(payload(revisionId, pageId ?? '', expires)),
  });
  return ctx.urls.api(`/pdf/${revisionId}?${query}`);
}

export const pdfRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { revisions } = ctx;
    const { signer } = ctx.storage;
    app.get(
      '/spaces/:spaceId/change-requests/:changeRequestId/pdf',
      {
        schema: {
          operationId: 'getChangeRequestPDF',
          tags: ['Change requests'],
          params: Type.Object({ spaceId: EntityId, changeRequestId: EntityId }),
          querystring: Type.Object({ only: Type.Optional(Type.Boolean()), page: Type.Optional(EntityId) }),
          response: { 200: Type.Object({ url: Type.String({ format: 'uri', maxLength: 2048 }) }) },
        },
      },
      async (req) => {
        const { cr } = await requireChangeRequest(ctx, req.principal, req.params.spaceId, req.params.changeRequestId);
        const { only, page } = req.query;
        if (only && !page) throw badRequest('"only" needs the "page" to export');
        // The page must exist in the change request's current content.
        if (page !== undefined) {
          const revision = await revisions.get(cr.revision);
          if (!revision || !viewOf(revision).pagesById.has(page)) throw notFound('Page');
        }
        return { url: signedPdfUrl(ctx, cr.revision, page) };
      },
    );

    app.get(
      '/pdf/:revisionId',
      {
        config: { public: true },
        schema: {
          operationId: 'downloadRevisionPdf',
          tags: ['Change requests'],
          summary: 'The PDF behind a signed URL from getChangeRequestPDF',
          security: [],
          params: Type.Object({ revisionId: EntityId }),
          querystring: Type.Object({
            page: Type.Optional(EntityId),
            expires: Type.Integer({ minimum: 0 }),
            signature: Type.String({ minLength: 10, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }),
          }),
        },
      },
      async (req, reply) => {
        const { revisionId } = req.params;
        const { page, expires, signature } = req.query;
        signer.requireValidLink(
          payload(revisionId, page ?? '', expires),
          signature,
          expires,
          ctx.clock.now(),
          'PDF link',
        );
        const stored = await revisions.get(revisionId);
        const space = stored && (await loadSpaceRow(ctx.db, stored.spaceId));
        if (!stored || !space) throw notFound('Revision');
        // Computed pages print as the pages they generate, as readers see them.
        const revision = await readAs(ctx, space.organization_id, stored, true);
        const view = viewOf(revision);
        const only = page === undefined ? undefined : view.pagesById.get(page);
        if (page !== undefined && !only) throw notFound('Page');
        // pdfkit (and its fonts) load with the first PDF, not at boot.
        const { renderPdf } = await import('./render');
        const pdf = await renderPdf(
          String(only?.title ?? 'Folio export'),
          only ? [only] : revision.pages,
          ctx.markdown,
        );
        return reply
          .type('application/pdf')
          .header('content-disposition', 'inline; filename="folio.pdf"')
          .header('cache-control', 'private, max-age=600')
          .send(pdf);
      },
    );
  };
