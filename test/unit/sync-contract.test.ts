import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  changeRequestOfContentDoc,
  CloseCode,
  crContentDoc,
  crDiscussionDoc,
  docNameOf,
  parseSyncPath,
  spaceContentDoc,
  spaceDiscussionDoc,
  spaceOfContentDoc,
  SYNC_BASE_PATH,
  syncPath,
  syncRoom,
  type SyncAddress,
} from '../../shared/sync-contract';

/**
 * The sync contract between the server, the renderer and the tests: every
 * address built is parsed back to itself, nothing outside the grammar is
 * accepted, and each address names its own hub document.
 */

const ID = 'aB3_-x';
const CR = 'cr_42-Z';
const ALL_KINDS: [SyncAddress, string, string][] = [
  [{ spaceId: ID, kind: 'content' }, `/v1/sync/spaces/${ID}`, `space/${ID}/content`],
  [{ spaceId: ID, kind: 'discussion' }, `/v1/sync/spaces/${ID}/discussion`, `space/${ID}/discussion`],
  [
    { spaceId: ID, changeRequestId: CR, kind: 'content' },
    `/v1/sync/spaces/${ID}/change-requests/${CR}`,
    `cr/${CR}/content`,
  ],
  [
    { spaceId: ID, changeRequestId: CR, kind: 'discussion' },
    `/v1/sync/spaces/${ID}/change-requests/${CR}/discussion`,
    `cr/${CR}/discussion`,
  ],
];

describe('sync paths', () => {
  it.each(ALL_KINDS)('builds and parses %o', (address, path, docName) => {
    expect(syncPath(address)).toBe(path);
    expect(`${SYNC_BASE_PATH}/${syncRoom(address)}`).toBe(path);
    expect(parseSyncPath(path)).toStrictEqual(address);
    expect(parseSyncPath(`${path}/`)).toStrictEqual(address);
    expect(docNameOf(address)).toBe(docName);
  });

  it('round-trips any valid ids (1 to 64 characters of [A-Za-z0-9_-])', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
    const address = fc.record(
      { spaceId: id, changeRequestId: id, kind: fc.constantFrom('content' as const, 'discussion' as const) },
      { requiredKeys: ['spaceId', 'kind'] },
    );
    fc.assert(
      fc.property(address, (a) => {
        expect(parseSyncPath(syncPath(a))).toStrictEqual({ ...a });
      }),
    );
  });

  it('parses only what it could have built (plus one trailing slash)', () => {
    const pieces = fc.constantFrom('/v1/sync/spaces', '/change-requests', '/discussion', '/', 'abc', 'x%2F', '-', '_');
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const path = parts.join('');
        const address = parseSyncPath(path);
        if (address) expect([syncPath(address), `${syncPath(address)}/`]).toContain(path);
      }),
    );
  });

  it('refuses ids outside the pattern, 65-character ids, extra segments and encoded characters', () => {
    const refused = [
      '',
      '/',
      '/v1/sync/spaces',
      '/v1/sync/spaces/',
      '/v1/sync/spaces//discussion',
      '/v1/sync/spaces/a.b',
      '/v1/sync/spaces/a b',
      '/v1/sync/spaces/ä',
      '/v1/sync/spaces/../etc',
      `/v1/sync/spaces/${'a'.repeat(65)}`,
      `/v1/sync/spaces/${ID}/change-requests/${'c'.repeat(65)}`,
      `/v1/sync/spaces/${ID}/elsewhere`,
      `/v1/sync/spaces/${ID}/discussion/more`,
      `/v1/sync/spaces/${ID}/content`,
      `/v1/sync/spaces/${ID}/change-requests`,
      `/v1/sync/spaces/${ID}/change-requests/`,
      `/v1/sync/spaces/${ID}/change-requests/${CR}/extra`,
      `/v1/sync/spaces/${ID}//`,
      `/v1/sync/spaces/${ID}?token=x`,
      '/v1/sync/spaces/a%2Fb',
      '/v1/sync/spaces/%41',
      `/v1/sync/spaces/${ID}%2Fdiscussion`,
      `/v1/sync/spaces/${ID}/change-requests/a%2Fb`,
      `/v2/sync/spaces/${ID}`,
      `/v1/sync/space/${ID}`,
      `v1/sync/spaces/${ID}`,
      `/prefix/v1/sync/spaces/${ID}`,
    ];
    for (const path of refused) expect(parseSyncPath(path), path).toBeUndefined();
    expect(parseSyncPath(`/v1/sync/spaces/${'a'.repeat(64)}`)).toStrictEqual({
      spaceId: 'a'.repeat(64),
      kind: 'content',
    });
  });
});

describe('document names', () => {
  it('names the four documents of a space and its change requests', () => {
    expect(spaceContentDoc('s1')).toBe('space/s1/content');
    expect(spaceDiscussionDoc('s1')).toBe('space/s1/discussion');
    expect(crContentDoc('c1')).toBe('cr/c1/content');
    expect(crDiscussionDoc('c1')).toBe('cr/c1/discussion');
  });

  it('tells a content document from the others', () => {
    expect(spaceOfContentDoc(spaceContentDoc('s1'))).toBe('s1');
    expect(spaceOfContentDoc(spaceDiscussionDoc('s1'))).toBeUndefined();
    expect(spaceOfContentDoc(crContentDoc('s1'))).toBeUndefined();
    expect(changeRequestOfContentDoc(crContentDoc('c1'))).toBe('c1');
    expect(changeRequestOfContentDoc(crDiscussionDoc('c1'))).toBeUndefined();
    expect(changeRequestOfContentDoc(spaceContentDoc('c1'))).toBeUndefined();
    expect(spaceOfContentDoc('space/a/b/content')).toBeUndefined();
  });
});

describe('close codes', () => {
  it('makes every refusal permanent for the stock client (4400-4499) and the transient ones retryable', () => {
    const permanent = [
      CloseCode.malformed,
      CloseCode.unauthorized,
      CloseCode.readOnly,
      CloseCode.notFound,
      CloseCode.deleted,
      CloseCode.locked,
    ];
    for (const code of permanent) expect(code >= 4400 && code <= 4499, String(code)).toBe(true);
    for (const code of [CloseCode.goingAway, CloseCode.tryAgainLater]) expect(code < 4400 || code > 4499).toBe(true);
    expect(new Set(Object.values(CloseCode)).size).toBe(Object.values(CloseCode).length);
  });
});
