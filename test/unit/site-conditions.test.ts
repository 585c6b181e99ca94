import { describe, expect, it } from 'vitest';
import { ConditionError, parseCondition, visitorPasses } from '../../sync-server/sites/conditions';
import { keyForMove } from '../../sync-server/api/sites/ordering';
import { ApiError } from '../../sync-server/http/errors';

describe('visitor conditions', () => {
  it('evaluates claims with comparisons, logic and includes', () => {
    const claims = { isBeta: true, plan: 'pro', seats: 12, roles: ['admin'], unsigned: { lang: 'fr' } };
    expect(visitorPasses('visitor.claims.isBeta == true', claims)).toBe(true);
    expect(visitorPasses('visitor.claims.plan == "pro" && visitor.claims.seats >= 10', claims)).toBe(true);
    expect(visitorPasses('visitor.claims.plan == "free" || !visitor.claims.isBeta', claims)).toBe(false);
    expect(visitorPasses('visitor.claims.roles.includes("admin")', claims)).toBe(true);
    expect(visitorPasses('visitor.claims["unsigned"].lang == "fr"', claims)).toBe(true);
    expect(visitorPasses(null, {})).toBe(true);
    expect(visitorPasses('', {})).toBe(true);
  });

  it('fails closed on missing claims and unparsable conditions', () => {
    expect(visitorPasses('visitor.claims.a.b.c == 1', {})).toBe(false);
    expect(visitorPasses('visitor.claims.isBeta ==', { isBeta: true })).toBe(false);
  });

  it('refuses anything but data access and operators', () => {
    for (const source of [
      'process.exit(1)',
      'require("fs")',
      'globalThis',
      'this',
      'visitor.constructor',
      'visitor.claims.__proto__',
      'visitor["constructor"]["constructor"]("return process")()',
      'visitor.claims[visitor.claims.key]',
      'visitor.claims.x = 1',
      '(1, 2)',
      'visitor.claims.toString()',
      'a ==',
    ]) {
      expect(() => parseCondition(source), source).toThrow(ConditionError);
    }
  });
});

describe('site ordering', () => {
  const siblings = [
    { id: 'a', position: 'a0' },
    { id: 'b', position: 'a1' },
    { id: 'c', position: 'a2' },
  ];
  it('places an item before or after a sibling', () => {
    expect(keyForMove(siblings, 'c', { before: 'a' }, 'x') < 'a0').toBe(true);
    const between = keyForMove(siblings, 'a', { after: 'b', before: 'c' }, 'x');
    expect(between > 'a1' && between < 'a2').toBe(true);
    expect(keyForMove(siblings, 'a', {}, 'x') > 'a2').toBe(true);
  });
  it('refuses invalid positions and moves that change nothing', () => {
    for (const [id, pos] of [
      ['c', {}],
      ['b', { after: 'a' }],
      ['b', { before: 'c' }],
      ['b', { before: 'b' }],
      ['b', { before: 'zz' }],
      ['a', { after: 'c', before: 'b' }],
    ] as const) {
      expect(() => keyForMove(siblings, id, pos, 'x'), JSON.stringify([id, pos])).toThrow(ApiError);
    }
  });
});
