import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository, type SpaceContent, type SpacePage } from '../../sync-server/git-sync/layout';
import { applyChanges, editPage, spaceFile } from '../helpers/git-layout-fixtures';

/**
 * Properties over generated spaces: export -> import reads the same space back and a second export
 * writes nothing; an edit of one page's body writes that page's file alone, and reads back as the
 * edit; an edit of one file in Git reads back as a change of that page alone.
 */

const word = fc.constantFrom(
  'alpha',
  'Beta',
  'gamma delta',
  'Ünïcode',
  'a [b]',
  'c#',
  'x: y',
  '  padded ',
  '🚀 rocket',
);
const line = (ids: readonly string[]) =>
  fc.oneof(
    word,
    fc.constantFrom(
      '',
      '* star',
      '- dash',
      '1. one',
      '> quote',
      '# Heading',
      'Setext',
      '===',
      '---',
      '```',
      '{% hint style="info" %}',
      '{% endhint %}',
      '  indented',
      '<div>x</div>',
    ),
    fc.constantFrom(...ids).map((id) => `see [it](/pages/${id}) here`),
    fc.constantFrom(...ids).map((id) => `[anchored](/pages/${id}#part)`),
    fc.constant('![img](/files/f1)'),
  );
const body = (ids: readonly string[]) => fc.array(line(ids), { maxLength: 6 }).map((lines) => lines.join('\n'));

/** A space of up to a dozen pages: documents first at the root, then groups (GitBook's order), links as leaves. */
const spaceArb: fc.Arbitrary<SpaceContent> = fc
  .record({
    shape: fc.array(fc.array(fc.nat(3), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
    groups: fc.array(fc.array(fc.nat(2), { maxLength: 3 }), { maxLength: 2 }),
    seed: fc.array(fc.tuple(word, fc.option(word, { nil: undefined }), fc.boolean(), fc.nat(5)), {
      minLength: 40,
      maxLength: 40,
    }),
    link: fc.boolean(),
  })
  .chain(({ shape, groups, seed, link }) => {
    let n = 0;
    const ids: string[] = [];
    const make = (childCounts: number[]): SpacePage => {
      const i = n++;
      const id = `p${i}`;
      ids.push(id);
      const [title, description, hidden, slugPick] = seed[i % seed.length]!;
      return {
        id,
        kind: 'document',
        title: `${title} ${i}`,
        slug: ['intro', 'guide', 'notes', '', 'setup', 'faq'][slugPick]!,
        markdown: '',
        ...(description ? { description } : {}),
        ...(hidden ? { hidden } : {}),
        children: childCounts.map(() => make([])),
      };
    };
    const roots: SpacePage[] = shape.map((c) => make(c));
    groups.forEach((g, gi) => {
      const children = g.map(() => make([]));
      if (link)
        children.push({
          id: `l${gi}`,
          kind: 'link',
          title: `Link ${gi}`,
          slug: 'link',
          href: `https://example.com/${gi}`,
          markdown: '',
          children: [],
        });
      roots.push({ id: `g${gi}`, kind: 'group', title: `Group ${gi}`, slug: `group-${gi}`, markdown: '', children });
    });
    const fill = (pages: readonly SpacePage[], bodies: string[]): SpacePage[] =>
      pages.map((p) => ({
        ...p,
        markdown: p.kind === 'document' ? bodies.shift()! : '',
        children: fill(p.children, bodies),
      }));
    return fc
      .array(body(ids), { minLength: ids.length, maxLength: ids.length })
      .map((bodies) => ({ pages: fill(roots, bodies), files: [spaceFile('f1', 'pic.png', new Uint8Array([7]))] }));
  });

const documents = (pages: readonly SpacePage[]): SpacePage[] =>
  pages.flatMap((p) => [...(p.kind === 'document' ? [p] : []), ...documents(p.children)]);

/** The space as a read answers it, without the read's own keys. */
const asSpace = (pages: readonly object[]): unknown =>
  pages.map((p) => {
    const { key: _key, path: _path, children, ...rest } = p as { key: string; path?: string; children: object[] };
    return { ...rest, children: asSpace(children) };
  });

describe('generated spaces', () => {
  it('export -> import reads the same space, and export again writes nothing', () => {
    fc.assert(
      fc.property(spaceArb, (space) => {
        const first = writeRepository(space, undefined, new Map());
        const repo = applyChanges(new Map(), first.changes);
        const read = readRepository(repo, first.baseline);
        expect(read.warnings).toEqual([]);
        expect(asSpace(read.pages)).toEqual(JSON.parse(JSON.stringify(space.pages)));
        expect(writeRepository(space, read.baseline, repo).changes.size).toBe(0);
      }),
      { numRuns: 100 },
    );
  });

  it('an edit of one body writes only that page’s file, and reads back as the edit', () => {
    fc.assert(
      fc.property(
        spaceArb,
        fc.nat(),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 3 }),
        fc.nat(),
        (space, pick, inserted, at) => {
          const first = writeRepository(space, undefined, new Map());
          const repo = applyChanges(new Map(), first.changes);
          const docs = documents(space.pages);
          const target = docs[pick % docs.length]!;
          const lines = target.markdown.split('\n');
          const cut = at % (lines.length + 1);
          const markdown = [
            ...lines.slice(0, cut),
            ...inserted.map((s) => s.replace(/[\r\n]/g, ' ')),
            ...lines.slice(cut + 1),
          ].join('\n');
          const pages = editPage(space.pages, target.id, (p) => ({ ...p, markdown }));
          const { changes, baseline } = writeRepository({ pages, files: space.files }, first.baseline, repo);
          expect(
            [...changes.keys()].every((p) => p === first.baseline.pages.find((b) => b.id === target.id)!.key),
          ).toBe(true);
          const read = readRepository(applyChanges(repo, changes), baseline);
          expect(documents(read.pages as SpacePage[]).find((p) => p.id === target.id)!.markdown).toBe(markdown);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('an edit of one line in Git changes that page alone, on that line', () => {
    fc.assert(
      fc.property(spaceArb, fc.nat(), fc.nat(), fc.string({ maxLength: 12 }), (space, pick, at, text) => {
        const first = writeRepository(space, undefined, new Map());
        const repo = applyChanges(new Map(), first.changes);
        const docs = first.baseline.pages.filter((p) => p.kind === 'document');
        const target = docs[pick % docs.length]!;
        const lines = target.text!.split('\n');
        const line = target.bodyStart! + (at % (lines.length - target.bodyStart!));
        const replacement = `changed ${text.replace(/[\r\n[\]()]/g, ' ')}`;
        lines[line] = replacement;
        const edited = new Map(repo).set(target.key, new TextEncoder().encode(lines.join('\n')));
        const read = readRepository(edited, first.baseline);
        for (const doc of documents(read.pages as SpacePage[])) {
          const before = documents(space.pages).find((p) => p.id === doc.id)!;
          if (doc.id !== target.id) expect(doc.markdown).toBe(before.markdown);
          else {
            const expected = before.markdown.split('\n');
            expected[line - target.bodyStart!] = replacement;
            expect(doc.markdown).toBe(expected.join('\n'));
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});
