import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as Y from 'yjs';
import { ContentDoc } from '../../shared/doc';
import { applyBatchAtomically, planBatch } from '../../sync-server/api/change-request-content/apply';
import type { ContentChange } from '../../sync-server/api/change-request-content/schemas';

/**
 * Property: a batch (what updateChangeRequestContent applies, through the
 * same function the route calls) and a live writer's concurrent edits of
 * other paragraphs of the same page converge on both sides, and the result
 * has the batch's text wherever the writer did not type and the writer's
 * text wherever the batch did not change anything. A batch with an invalid
 * change leaves the document byte-for-byte unchanged.
 */
const word = fc.stringMatching(/^[a-z]{1,8}$/);
const paragraph = fc.array(word, { minLength: 2, maxLength: 6 }).map((w) => w.join(' '));

function sync(a: Y.Doc, b: Y.Doc) {
  Y.applyUpdate(b, Y.encodeStateAsUpdate(a, Y.encodeStateVector(b)));
  Y.applyUpdate(a, Y.encodeStateAsUpdate(b, Y.encodeStateVector(a)));
}

describe('updateChangeRequestContent batches as CRDT edits', () => {
  it('converge with concurrent live edits and keep both sides’ changes', () => {
    fc.assert(
      fc.property(
        fc.array(paragraph, { minLength: 2, maxLength: 8 }),
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), paragraph, word)),
        fc.integer({ min: 0, max: 3 }),
        (paragraphs, plan, extraPages) => {
          const server = new Y.Doc();
          const pageId = new ContentDoc(server).createPage({ title: 'Page', markdown: paragraphs.join('\n\n') + '\n' });
          const writer = new Y.Doc();
          sync(server, writer);

          // Each paragraph: rewritten by the batch, typed in by the writer, or neither (never both).
          const roles = paragraphs.map((_, i) => {
            const [batch, live] = plan[i] ?? [false, false];
            return batch ? 'batch' : live ? 'live' : 'none';
          });
          const batchText = paragraphs.map((p, i) =>
            roles[i] === 'batch' ? (plan[i]![2] === p ? `${p} new` : plan[i]![2]) : p,
          );
          const liveText = paragraphs.map((p, i) => {
            if (roles[i] !== 'live') return p;
            const first = p.indexOf(' ');
            return `${p.slice(0, first)} ${plan[i]![3]}${p.slice(first)}`;
          });

          // The writer types (offline from the server's point of view)…
          const body = new ContentDoc(writer).pageBody(pageId);
          let offset = 0;
          paragraphs.forEach((p, i) => {
            if (roles[i] === 'live') body.insert(offset + p.indexOf(' '), ` ${plan[i]![3]}`);
            offset += liveText[i]!.length + 2;
          });

          // …while the batch is applied on the server.
          const changes: ContentChange[] = [
            { operation: 'update_page', page: pageId, document: { markdown: batchText.join('\n\n') + '\n' } },
          ];
          for (let n = 0; n < extraPages; n++)
            changes.push({ operation: 'insert_page', title: `Extra ${n}`, document: { markdown: `Extra ${n}\n` } });
          applyBatchAtomically(server, changes, planBatch(changes));

          sync(server, writer);
          const onServer = new ContentDoc(server).getMarkdown(pageId);
          expect(new ContentDoc(writer).getMarkdown(pageId)).toBe(onServer);
          const expected =
            paragraphs.map((_, i) => (roles[i] === 'batch' ? batchText[i] : liveText[i])).join('\n\n') + '\n';
          expect(onServer).toBe(expected);
          expect(new ContentDoc(writer).listPageIds()).toHaveLength(1 + extraPages);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('leaves the document unchanged when any change of the batch is invalid', () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 1, maxLength: 10 }), fc.nat(), (titles, badAt) => {
        const doc = new Y.Doc();
        const pageId = new ContentDoc(doc).createPage({ title: 'Page', markdown: 'Body\n' });
        const before = Y.encodeStateAsUpdate(doc);
        const changes: ContentChange[] = titles.map((title) => ({
          operation: 'update_page',
          page: pageId,
          title,
          document: { markdown: `${title}\n` },
        }));
        changes.splice(badAt % (changes.length + 1), 0, { operation: 'delete_page', page: 'missing-page' });
        expect(() => applyBatchAtomically(doc, changes, planBatch(changes))).toThrow(/body\.changes\[\d+\]/);
        expect(Buffer.from(Y.encodeStateAsUpdate(doc)).equals(Buffer.from(before))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
