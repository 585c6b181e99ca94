import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { signedPdfUrl } from '../../sync-server/pdf/routes';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, ok, raw } from '../helpers/api';
import { pdfText as pdfTextOf } from '../helpers/pdf-text';

const pdfText = (bytes: ArrayBuffer) => pdfTextOf(bytes, { layout: true });

let t: TestServer;
let spaceId: string;
let revisionId: string;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'PDF Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Manual' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const content = new ContentDoc(doc);
    ids.start = content.createPage({
      title: 'Getting started',
      markdown: '# Install\n\nRun the folio installer.\n\n- first step\n- second step\n',
    });
    ids.ops = content.createPage({
      title: 'Operations',
      markdown: 'Back up the **data** folder nightly.\n\n```\nnpm start\n```\n',
    });
  });
  revisionId = (await t.server.ctx.snapshots.revise(spaceId))!;
});
afterAll(async () => {
  await t?.close();
});

describe('PDF export', () => {
  it('renders every page with titles and body text, readable by pdftotext', async () => {
    const res = await fetch(signedPdfUrl(t.server.ctx, revisionId));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const text = await pdfText(await res.arrayBuffer());
    for (const expected of [
      'Getting started',
      'Install',
      'Run the folio installer.',
      'first step',
      'Operations',
      'Back up the data folder nightly.',
      'npm start',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('renders one page only when asked', async () => {
    const res = await fetch(signedPdfUrl(t.server.ctx, revisionId, ids.ops));
    const text = await pdfText(await res.arrayBuffer());
    expect(text).toContain('Operations');
    expect(text).not.toContain('Getting started');
  });

  it('refuses tampered and expired links', async () => {
    const url = new URL(signedPdfUrl(t.server.ctx, revisionId, ids.ops));
    const tampered = new URL(url);
    tampered.searchParams.set('page', ids.start!);
    expectError(await raw(t, 'GET', tampered.pathname + tampered.search), 403);
    t.clock.advance(2 * 60 * 60 * 1000);
    expectError(await raw(t, 'GET', url.pathname + url.search), 403, /expired/);
  });
});

describe('getChangeRequestPDF', () => {
  it('answers a signed URL to the change request content as a PDF, or to one page of it', async () => {
    const cr = (await t.client.spaces.createChangeRequest(spaceId, { subject: 'Review me' })).data;
    const { url } = await ok('getChangeRequestPDF', t.client.spaces.getChangeRequestPdf(spaceId, cr.id));
    const text = await pdfText(await (await fetch(url)).arrayBuffer());
    expect(text).toContain('Getting started');
    expect(text).toContain('Back up the data folder nightly.');
    const one = await ok(
      'getChangeRequestPDF',
      t.client.spaces.getChangeRequestPdf(spaceId, String(cr.number), { only: true, page: ids.ops! }),
    );
    const oneText = await pdfText(await (await fetch(one.url)).arrayBuffer());
    expect(oneText).toContain('Operations');
    expect(oneText).not.toContain('Getting started');
    expectError(
      await raw(t, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf?page=noSuchPage`, {
        token: t.adminToken,
      }),
      404,
    );
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/pdf`), 401);
  });
});
