import { describe, expect, it } from 'vitest';
import type { SiteSection, SiteSectionGroup, SiteSpace } from '../../renderer/src/sites/site-api';
import {
  applyTopLevelSteps,
  planTopLevelMove,
  reordered,
  rootSiteSpaces,
  siblingMove,
  topLevelOf,
  type SiteStructure,
} from '../../renderer/src/sites/structure/model';

/** The structure screen's model: the top level rebuilt from the API's lists, and move plans. */

const section = (id: string, group?: string): SiteSection =>
  ({
    object: 'site-section',
    id,
    title: id,
    path: id,
    default: false,
    draft: false,
    siteSpaces: [],
    urls: {},
    ...(group ? { sectionGroup: group } : {}),
  }) as SiteSection;
const group = (id: string): SiteSectionGroup =>
  ({ object: 'site-section-group', id, title: id, draft: false, sections: [], children: [] }) as SiteSectionGroup;
const siteSpace = (id: string, sectionId?: string): SiteSpace =>
  ({
    object: 'site-space',
    id,
    path: id,
    title: id,
    default: false,
    draft: false,
    hidden: false,
    urls: {},
    space: { id: `space-${id}`, title: id },
    ...(sectionId ? { section: sectionId } : {}),
  }) as SiteSpace;

const kinds = (s: string) =>
  s.split(' ').map((token) => ({ type: token.startsWith('G') ? ('group' as const) : ('section' as const), id: token }));
const ids = (items: { id: string }[]) => items.map((i) => i.id).join(' ');

describe('topLevelOf', () => {
  it('interleaves sections outside groups and groups as the section list orders them', () => {
    const structure: SiteStructure = {
      sections: [section('a'), section('b', 'G1'), section('c', 'G1'), section('d')],
      groups: [group('G1')],
      siteSpaces: [],
    };
    const top = topLevelOf(structure);
    expect(ids(top)).toBe('a G1 d');
    const g = top[1]!;
    expect(g.type === 'group' && ids(g.sections)).toBe('b c');
  });

  it('puts an empty group after the group listed before it, else before the next, else at the end', () => {
    const base = { siteSpaces: [] };
    expect(
      ids(
        topLevelOf({
          ...base,
          sections: [section('a'), section('b', 'G1'), section('c')],
          groups: [group('G1'), group('G2')],
        }),
      ),
    ).toBe('a G1 G2 c');
    expect(
      ids(topLevelOf({ ...base, sections: [section('a'), section('b', 'G2')], groups: [group('G1'), group('G2')] })),
    ).toBe('a G1 G2');
    expect(ids(topLevelOf({ ...base, sections: [section('a')], groups: [group('G1')] }))).toBe('a G1');
  });

  it('site spaces outside sections are the root level', () => {
    expect(ids(rootSiteSpaces({ sections: [], groups: [], siteSpaces: [siteSpace('x'), siteSpace('y', 's')] }))).toBe(
      'x',
    );
  });
});

describe('siblingMove', () => {
  const list = kinds('a b c');
  it('places an item before its new next sibling, or after the last one', () => {
    expect(siblingMove(list, 'c', 0)).toEqual({ before: 'a' });
    expect(siblingMove(list, 'a', 1)).toEqual({ before: 'c' });
    expect(siblingMove(list, 'a', 2)).toEqual({ after: 'c' });
  });
  it('asks nothing when the item stays', () => {
    expect(siblingMove(list, 'b', 1)).toBeUndefined();
    expect(reordered(list, 'b', 1).map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('planTopLevelMove', () => {
  // Every move of every item to every index: the plan, applied as the server applies it, gives the wanted order,
  // and a section never points at a group (the API refuses that).
  for (const start of ['a b c', 'a G1 b', 'G1 a G2', 'G1 G2 a', 'a G1 G2 b', 'G1 a', 'a G1', 'G1 G2 a b G3']) {
    it(`reaches every order of "${start}"`, () => {
      const items = kinds(start);
      for (const item of items)
        for (let to = 0; to < items.length; to++) {
          const steps = planTopLevelMove(items, item.id, to);
          const want = ids(reordered(items, item.id, to));
          expect(ids(applyTopLevelSteps(items, steps)), `${item.id} → ${to}`).toBe(want);
          if (want === start) expect(steps).toEqual([]);
          for (const step of steps) {
            if (step.kind !== 'section') continue;
            for (const p of [step.to.before, step.to.after]) if (p) expect(p.startsWith('G')).toBe(false);
          }
        }
    });
  }

  it('a one-step move of a section past a group moves the group instead', () => {
    expect(planTopLevelMove(kinds('G1 a'), 'a', 0)).toEqual([
      { kind: 'group', id: 'G1', to: { after: { type: 'site-section', id: 'a' } } },
    ]);
    expect(planTopLevelMove(kinds('a G1 G2'), 'a', 1)).toEqual([
      { kind: 'group', id: 'G1', to: { before: { type: 'site-section', id: 'a' } } },
    ]);
  });
});
