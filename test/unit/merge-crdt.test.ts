import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as Y from 'yjs';
import { ContentDoc } from '../../shared/doc';
import { forkUpdate, hasChangesFor, pullInto } from '../../sync-server/docs/fork-merge';

/**
 * Property tests of the change request merge functions (the ones the routes
 * call): random concurrent edit scripts on a space document and several
 * forks, interleaved with update-from-main and merges. Every inserted text is
 * a unique token `[n]`, inserted only between tokens and deleted only as whole
 * tokens, so survival is an exact substring check.
 */

type Op =
  | { kind: 'insert'; side: number; page: number; at: number }
  | { kind: 'delete'; side: number; page: number; at: number; count: number }
  | { kind: 'page'; side: number }
  | { kind: 'update'; cr: number }
  | { kind: 'merge'; cr: number };

const SIDES = 4; // side 0 = the space, 1..3 = change requests

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('insert' as const),
      side: fc.nat(SIDES - 1),
      page: fc.nat(20),
      at: fc.nat(50),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      side: fc.nat(SIDES - 1),
      page: fc.nat(20),
      at: fc.nat(50),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('page' as const), side: fc.nat(SIDES - 1) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('update' as const), cr: fc.integer({ min: 1, max: SIDES - 1 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('merge' as const), cr: fc.integer({ min: 1, max: SIDES - 1 }) }),
  },
);

/** Token boundaries of a text made of `[n]` tokens: 0 and every index after a `]`. */
function boundaries(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === ']') out.push(i + 1);
  return out;
}

function run(ops: Op[]) {
  const space = new Y.Doc();
  const seed = new ContentDoc(space);
  seed.createPage({ id: 'home', title: 'Home', markdown: '[0]' });
  const docs = [space];
  for (let i = 1; i < SIDES; i++) {
    const fork = new Y.Doc();
    Y.applyUpdate(fork, forkUpdate(space));
    docs.push(fork);
  }
  const inserted = new Set<string>(['[0]']);
  const deleted = new Set<string>();
  let counter = 1;
  for (const op of ops) {
    if (op.kind === 'update') pullInto(docs[op.cr]!, space);
    else if (op.kind === 'merge') pullInto(space, docs[op.cr]!);
    else {
      const content = new ContentDoc(docs[op.side]!);
      const pages = content.listPageIds().sort();
      if (op.kind === 'page') {
        const token = `[${counter++}]`;
        content.createPage({ title: `Page ${token}`, markdown: token });
        inserted.add(token);
        continue;
      }
      const page = pages[op.page % pages.length]!;
      const body = content.pageBody(page);
      const text = body.toString();
      const bounds = boundaries(text);
      const at = bounds[op.at % bounds.length]!;
      if (op.kind === 'insert') {
        const token = `[${counter++}]`;
        body.insert(at, token);
        inserted.add(token);
      } else {
        // Whole tokens only, starting at a boundary.
        const start = bounds.indexOf(at);
        const end = bounds[Math.min(bounds.length - 1, start + op.count)]!;
        if (end <= at) continue;
        for (const m of text.slice(at, end).match(/\[\d+\]/g) ?? []) deleted.add(m);
        body.delete(at, end - at);
      }
    }
  }
  return { space, docs, inserted, deleted };
}

function allText(doc: Y.Doc): string {
  const content = new ContentDoc(doc);
  return content
    .listPageIds()
    .sort()
    .map((id) => `${id}:${content.getMarkdown(id)}`)
    .join('\n');
}

describe('change request CRDT merge (property)', () => {
  it('converges and keeps every insert that no one deleted', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => {
        const { space, docs, inserted, deleted } = run(ops);
        // Settle: merge every fork, then bring every fork up to date.
        for (let i = 1; i < SIDES; i++) pullInto(space, docs[i]!);
        for (let i = 1; i < SIDES; i++) pullInto(docs[i]!, space);
        const final = allText(space);
        for (let i = 1; i < SIDES; i++) {
          expect(allText(docs[i]!)).toBe(final);
          expect(hasChangesFor(space, docs[i]!)).toBe(false);
          expect(hasChangesFor(docs[i]!, space)).toBe(false);
        }
        for (const token of inserted) {
          if (!deleted.has(token)) expect(final).toContain(token);
        }
        for (const token of deleted) expect(final).not.toContain(token);
      }),
      { numRuns: 300 },
    );
  });

  it('a merge keeps every insert of the fork and of the space made since the fork', () => {
    fc.assert(
      fc.property(
        fc.array(
          opArb.filter((o) => o.kind !== 'merge'),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: SIDES - 1 }),
        (ops, cr) => {
          const { space, docs, inserted, deleted } = run(ops);
          const spaceBefore = allText(space);
          const forkBefore = allText(docs[cr]!);
          pullInto(space, docs[cr]!);
          const merged = allText(space);
          for (const token of inserted) {
            if (deleted.has(token)) continue;
            if (spaceBefore.includes(token) || forkBefore.includes(token)) expect(merged).toContain(token);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('outdated: detects inserts and deletions the fork lacks, and clears after update', () => {
    const space = new Y.Doc();
    const content = new ContentDoc(space);
    const page = content.createPage({ title: 'A', markdown: 'hello world' });
    const fork = new Y.Doc();
    Y.applyUpdate(fork, forkUpdate(space));
    expect(hasChangesFor(space, fork)).toBe(false);
    content.pageBody(page).delete(0, 6);
    // A deletion does not move the state vector: still detected.
    expect(hasChangesFor(space, fork)).toBe(true);
    pullInto(fork, space);
    expect(hasChangesFor(space, fork)).toBe(false);
    new ContentDoc(fork).pageBody(page).insert(0, 'x');
    // The fork being ahead does not make it outdated.
    expect(hasChangesFor(space, fork)).toBe(false);
    expect(hasChangesFor(fork, space)).toBe(true);
  });
});
