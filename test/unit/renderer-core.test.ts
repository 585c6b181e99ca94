import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ContentDoc } from '../../shared/doc/content-doc';
import { formatRoute, parseRoute, sameDocument } from '../../renderer/src/routes';
import { TreeModel } from '../../renderer/src/tree/tree-model';
import { dropTarget, moveTarget } from '../../renderer/src/tree/tree-moves';
import { referencedFiles, renderMarkdown, PAGE_LINK_PREFIX } from '../../renderer/src/preview/render-markdown';
import { combineStates } from '../../renderer/src/sync/connection-status';
import { storageNameOf } from '../../renderer/src/sync/doc-session';
import { syncRoom } from '../../shared/sync-contract';
import { matches } from '../../renderer/src/shortcuts';
import { imageMarkdown } from '../../renderer/src/upload/image-upload';
import { normalizeServerUrl } from '../../renderer/src/api/client';

describe('routes', () => {
  it('round-trips spaces, change requests and pages through the hash', () => {
    for (const route of [
      { view: 'picker' as const },
      { view: 'space' as const, spaceId: 's1' },
      { view: 'space' as const, spaceId: 's1', changeRequestId: 'cr1', pageId: 'p1' },
    ]) {
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
    expect(parseRoute('#/spaces/../../etc')).toEqual({ view: 'picker' });
    expect(parseRoute('')).toEqual({ view: 'picker' });
    expect(sameDocument(parseRoute('#/spaces/a/pages/x'), parseRoute('#/spaces/a/pages/y'))).toBe(true);
    expect(sameDocument(parseRoute('#/spaces/a'), parseRoute('#/spaces/a/change-requests/c'))).toBe(false);
  });
});

describe('page tree', () => {
  const setup = () => {
    const doc = new Y.Doc();
    const content = new ContentDoc(doc);
    const a = content.createPage({ title: 'A' });
    const b = content.createPage({ title: 'B' });
    const c = content.createPage({ title: 'C' });
    return { doc, content, model: new TreeModel(doc), a, b, c };
  };

  it('reorders, nests and un-nests with keyboard moves', () => {
    const { content, model, a, b, c } = setup();
    expect(model.ordered()).toEqual([a, b, c]);
    content.movePage(c, moveTarget(model, c, 'up')!);
    expect(model.childrenOf(null)).toEqual([a, c, b]);
    content.movePage(c, moveTarget(model, c, 'indent')!);
    expect(model.childrenOf(a)).toEqual([c]);
    content.movePage(b, moveTarget(model, b, 'indent')!);
    expect(model.childrenOf(a)).toEqual([c, b]);
    content.movePage(b, moveTarget(model, b, 'outdent')!);
    expect(model.childrenOf(null)).toEqual([a, b]);
    expect(moveTarget(model, a, 'up')).toBeUndefined();
    expect(moveTarget(model, a, 'outdent')).toBeUndefined();
    content.movePage(b, dropTarget(model, a, 'before'));
    expect(model.ordered()).toEqual([b, a, c]);
  });

  it('notifies on outline changes only, not on typing', () => {
    const { content, model, a } = setup();
    let changes = 0;
    model.onChange(() => changes++);
    content.pageBody(a).insert(0, 'typing does not move the tree');
    expect(changes).toBe(0);
    content.updatePage(a, { title: 'Renamed' });
    expect(changes).toBe(1);
    expect(model.entry(a)?.title).toBe('Renamed');
    content.deletePage(a);
    expect(model.size).toBe(2);
  });
});

describe('markdown preview', () => {
  it('sanitizes what any editor could write into a page', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[x](javascript:alert(3)) **ok**',
    );
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
    expect(html).toContain('<strong>ok</strong>');
  });

  it('resolves file images and page links', () => {
    const md = '![chart](/files/f1) ![later](/files/f2) [next](/pages/p2)';
    expect(referencedFiles(md)).toEqual(['f1', 'f2']);
    const html = renderMarkdown(md, {
      fileUrl: (id) => (id === 'f1' ? 'http://127.0.0.1:1/v1/files/abc/chart.png?sig=1' : undefined),
    });
    expect(html).toContain('src="http://127.0.0.1:1/v1/files/abc/chart.png?sig=1"');
    expect(html).toContain('alt="later"');
    expect(html).toContain(`href="${PAGE_LINK_PREFIX}p2"`);
    expect(imageMarkdown('my [chart].png', 'f9')).toBe('![my chart](/files/f9)');
  });
});

describe('sync plumbing', () => {
  it('combines document states and queued comments into one indicator', () => {
    expect(combineStates(['online', 'online'], 0)).toBe('online');
    expect(combineStates(['online', 'online'], 2)).toBe('syncing');
    expect(combineStates(['online', 'syncing'], 0)).toBe('syncing');
    expect(combineStates(['offline', 'syncing'], 1)).toBe('offline');
    expect(combineStates(['refused', 'offline'], 0)).toBe('refused');
  });

  it('names rooms and local stores per server and document', () => {
    expect(syncRoom({ spaceId: 's', kind: 'content' })).toBe('s');
    expect(syncRoom({ spaceId: 's', changeRequestId: 'c', kind: 'discussion' })).toBe('s/change-requests/c/discussion');
    expect(storageNameOf('http://a:1', { spaceId: 's', kind: 'content' })).not.toBe(
      storageNameOf('http://b:1', { spaceId: 's', kind: 'content' }),
    );
    expect(normalizeServerUrl(' http://127.0.0.1:8080/ ')).toBe('http://127.0.0.1:8080');
    expect(() => normalizeServerUrl('ftp://x')).toThrow(/http/);
  });

  it('matches shortcuts by physical key, with Cmd on macOS', () => {
    const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>>) => ({
      key: k,
      code: `Key${k.toUpperCase()}`,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      shiftKey: false,
      ...mods,
    });
    expect(matches({ ...key('m', { ctrlKey: true, altKey: true }), key: 'µ' }, 'Mod+Alt+N', false)).toBe(false);
    expect(matches({ ...key('n', { ctrlKey: true, altKey: true }), key: '~' }, 'Mod+Alt+N', false)).toBe(true);
    expect(matches(key('k', { metaKey: true }), 'Mod+K', true)).toBe(true);
    expect(matches(key('k', { ctrlKey: true }), 'Mod+K', true)).toBe(false);
    expect(matches(key('k', { ctrlKey: true, altKey: true }), 'Mod+K', false)).toBe(false);
  });
});
