import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { crContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { ok } from '../helpers/api';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * Property over the real server: random batches sent with the official
 * client while a stock y-websocket writer types in other paragraphs of the
 * same page converge (writer, server), and the stored markdown is what the
 * batch asked for wherever the writer did not type, and the writer's text
 * where the batch changed nothing. Few runs (each is a change request and a
 * socket); test/unit/change-request-content-property.test.ts runs hundreds
 * of the same property on bare documents.
 */
let t: TestServer;
let spaceId: string;
const clients = new SyncClients();

beforeAll(async () => {
  t = await startTestServer();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Property Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
});
afterEach(() => clients.destroyAll());
afterAll(async () => {
  await t?.close();
});

const word = fc.stringMatching(/^[a-z]{1,8}$/);
const paragraph = fc.array(word, { minLength: 2, maxLength: 5 }).map((w) => w.join(' '));

describe('REST batches and live edits', () => {
  it('converge and keep both sides', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(paragraph, { minLength: 2, maxLength: 5 }),
        fc.array(fc.tuple(fc.constantFrom('batch', 'live', 'none'), paragraph, word), { minLength: 5, maxLength: 5 }),
        async (paragraphs, plan) => {
          const roles = paragraphs.map((_, i) => plan[i]![0]);
          const batchText = paragraphs.map((p, i) => (roles[i] === 'batch' ? `${plan[i]![1]} rest` : p));
          const liveText = paragraphs.map((p, i) => (roles[i] === 'live' ? p.replace(' ', ` ${plan[i]![2]} `) : p));
          const crId = (await ok('createChangeRequest', t.client.spaces.createChangeRequest(spaceId, {}), 201)).id;
          const created = (await ok(
            'updateChangeRequestContent',
            t.client.spaces.updateChangeRequestContent(
              spaceId,
              crId,
              {
                changes: [
                  { operation: 'insert_page', title: 'P', document: { markdown: paragraphs.join('\n\n') + '\n' } },
                ],
              },
              { compat: false },
            ),
          )) as ChangeRequestContentUpdate;
          const pageId = (created.changes[0] as { page: { id: string } }).page.id;

          const writer = clients.connect(t.url, { spaceId, changeRequestId: crId, kind: 'content' });
          await synced(writer);
          const live = new ContentDoc(writer.doc);
          writer.provider.disconnect();
          const body = live.pageBody(pageId);
          let offset = 0;
          paragraphs.forEach((p, i) => {
            if (roles[i] === 'live') body.insert(offset + p.indexOf(' '), ` ${plan[i]![2]}`);
            offset += liveText[i]!.length + 2;
          });
          await ok(
            'updateChangeRequestContent',
            t.client.spaces.updateChangeRequestContent(spaceId, crId, {
              changes: [
                { operation: 'update_page', page: pageId, document: { markdown: batchText.join('\n\n') + '\n' } },
                { operation: 'insert_page', title: 'Sibling', document: { markdown: 'Sibling.\n' } },
              ],
            }),
          );
          writer.provider.connect();

          const expected =
            paragraphs.map((_, i) => (roles[i] === 'batch' ? batchText[i] : liveText[i])).join('\n\n') + '\n';
          const onServer = () =>
            t.server.ctx.hub.withDoc(crContentDoc(crId), (doc) => new ContentDoc(doc).getMarkdown(pageId));
          await waitFor(
            async () => live.getMarkdown(pageId) === (await onServer()) && live.listPageIds().length === 2,
            10_000,
            'convergence',
          );
          expect(await onServer()).toBe(expected);
          clients.destroyAll();
        },
      ),
      { numRuns: 6, seed: 20_261_125 },
    );
  });
});
