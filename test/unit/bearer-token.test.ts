import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../sync-server/identity/principal';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, whatever the case and spacing, and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer   abc  ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it('answers a repeated header as the first time, and the next header by its own value', () => {
    const header = ['Bearer', 'tok-1'].join(' ');
    expect(bearerToken(header)).toBe('tok-1');
    expect(bearerToken(`Bearer ${'tok-1'}`)).toBe('tok-1');
    expect(bearerToken('Basic tok-1')).toBeUndefined();
    expect(bearerToken('Basic tok-1')).toBeUndefined();
    expect(bearerToken('Bearer tok-2')).toBe('tok-2');
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer tok-2')).toBe('tok-2');
  });
});
