import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../sync-server/store/pglite';
import { migrate } from '../../sync-server/store/migrate';
import type { Db } from '../../sync-server/store/db';
import { loadRevision, saveRevision, type StoredPage } from '../../sync-server/docs/revision-store';

let db: Db;
beforeAll(async () => {
  db = await openPglite(undefined);
  await migrate(db);
  await db.exec(`
    INSERT INTO organizations (id, title) VALUES ('org', 'Org');
    INSERT INTO spaces (id, organization_id, position, revision) VALUES ('space', 'org', 'a0', 'r0');
  `);
});
afterAll(async () => {
  await db.close();
});

const page = (id: string, markdown: string, pages: StoredPage[] = []): StoredPage => ({
  id,
  title: id.toUpperCase(),
  markdown,
  pages,
});
const pageCount = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM revision_pages'))[0]!.n;

describe('revision store', () => {
  it('round-trips the page tree, files and variables', async () => {
    const content = {
      pages: [page('a', '# A', [page('a1', 'child')]), page('b', 'B')],
      files: [{ id: 'f', name: 'x.png' }],
      reusableContents: [],
      variables: { version: '1.0' },
    };
    await saveRevision(db, {
      id: 'r1',
      spaceId: 'space',
      parents: ['r0'],
      createdAt: new Date('2026-01-01T00:00:00Z'),
      ...content,
    });
    const loaded = await loadRevision(db, 'r1');
    expect(loaded).toMatchObject({
      id: 'r1',
      spaceId: 'space',
      parents: ['r0'],
      type: 'edits',
      files: content.files,
      variables: content.variables,
    });
    expect(loaded!.pages.map((p) => p.id)).toEqual(['a', 'b']);
    expect(loaded!.pages[0]!.pages!.map((p) => p.markdown)).toEqual(['child']);
    expect(await loadRevision(db, 'nope')).toBeUndefined();
  });

  it('stores each distinct page once across revisions', async () => {
    const before = await pageCount();
    const shared = page('s', 'unchanged body '.repeat(100));
    await saveRevision(db, {
      id: 'r2',
      spaceId: 'space',
      parents: [],
      createdAt: new Date(),
      pages: [shared, page('e', 'v1')],
      files: [],
      reusableContents: [],
      variables: {},
    });
    // Same content under a new object with keys in another order: still the same stored page.
    const sameContent = { markdown: shared.markdown, title: shared.title, id: shared.id, pages: [] };
    await saveRevision(db, {
      id: 'r3',
      spaceId: 'space',
      parents: ['r2'],
      createdAt: new Date(),
      pages: [sameContent, page('e', 'v2')],
      files: [],
      reusableContents: [],
      variables: {},
    });
    expect(await pageCount()).toBe(before + 3);
    expect((await loadRevision(db, 'r3'))!.pages[1]!.markdown).toBe('v2');
    expect((await loadRevision(db, 'r2'))!.pages[1]!.markdown).toBe('v1');
  });
});
