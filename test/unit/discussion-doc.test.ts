import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { DiscussionDoc, DiscussionDocError, isReactionEmoji } from '../../shared/discussion';
import { COMMENT, commentsRoot } from '../../shared/discussion/keys';

/** DiscussionDoc: the typed accessor of discussion documents (comments, replies, reactions, resolution). */

const clock = () => {
  let t = Date.parse('2024-05-01T10:00:00.000Z');
  return () => new Date((t += 1000));
};
const fresh = () => {
  const ydoc = new Y.Doc();
  return { ydoc, d: new DiscussionDoc(ydoc, { now: clock() }) };
};
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof DiscussionDocError ? err.code : String(err);
  }
  return 'no error';
};

describe('DiscussionDoc', () => {
  it('posts comments with targets and lists them oldest first', () => {
    const { d } = fresh();
    const a = d.postComment({ author: 'u1', markdown: 'First', target: { page: 'p1', node: 'n1' } });
    const b = d.postComment({
      author: 'u2',
      markdown: 'Second',
      target: { tableCell: { record: 'r', definition: 'c' } },
    });
    expect(a).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(d.listComments().map((c) => c.id)).toEqual([a, b]);
    expect(d.getComment(a)).toEqual({
      id: a,
      author: 'u1',
      markdown: 'First',
      postedAt: '2024-05-01T10:00:01.000Z',
      target: { page: 'p1', node: 'n1' },
      reactions: [],
      replies: [],
    });
    expect(d.getComment(b)!.target).toEqual({ tableCell: { record: 'r', definition: 'c' } });
    expect(d.getComment('nope')).toBeUndefined();
    expect(code(() => d.postComment({ id: a, author: 'u1', markdown: 'dup' }))).toBe('invalid');
  });

  it('edits bodies with editedAt, resolves and reopens', () => {
    const { d } = fresh();
    const id = d.postComment({ author: 'u1', markdown: 'Draft' });
    d.editBody({ comment: id }, 'Final');
    expect(d.getComment(id)).toMatchObject({ markdown: 'Final', editedAt: '2024-05-01T10:00:02.000Z' });
    expect(d.openCommentCount()).toBe(1);
    d.setResolved(id, true, 'u2');
    expect(d.getComment(id)).toMatchObject({ resolvedAt: '2024-05-01T10:00:03.000Z', resolvedBy: 'u2' });
    expect(d.openCommentCount()).toBe(0);
    d.setResolved(id, true, 'u3'); // already resolved: keeps the first resolution
    expect(d.getComment(id)!.resolvedBy).toBe('u2');
    d.setResolved(id, false, 'u3');
    expect(d.getComment(id)!.resolvedAt).toBeUndefined();
    expect(d.getComment(id)!.resolvedBy).toBeUndefined();
    expect(d.openCommentCount()).toBe(1);
    expect(code(() => d.setResolved('nope', true, 'u1'))).toBe('not-found');
  });

  it('keeps one reaction per user per emoji and drops emptied emoji', () => {
    const { d, ydoc } = fresh();
    const id = d.postComment({ author: 'u1', markdown: 'Hi' });
    d.react({ comment: id }, 'u1', ['👍', '🎉'], []);
    d.react({ comment: id }, 'u1', ['👍'], []);
    d.react({ comment: id }, 'u2', ['👍'], []);
    // Earliest reaction first; emoji reacted at the same instant are ordered by their string.
    expect(d.getComment(id)!.reactions).toEqual([
      { emoji: '🎉', users: [{ userId: 'u1', reactedAt: '2024-05-01T10:00:02.000Z' }] },
      {
        emoji: '👍',
        users: [
          { userId: 'u1', reactedAt: '2024-05-01T10:00:02.000Z' },
          { userId: 'u2', reactedAt: '2024-05-01T10:00:04.000Z' },
        ],
      },
    ]);
    d.react({ comment: id }, 'u1', [], ['🎉', '👍', '🚀']);
    expect(d.getComment(id)!.reactions).toEqual([
      { emoji: '👍', users: [{ userId: 'u2', reactedAt: '2024-05-01T10:00:04.000Z' }] },
    ]);
    const stored = commentsRoot(ydoc).get(id)!.get(COMMENT.reactions) as Y.Map<unknown>;
    expect([...stored.keys()]).toEqual(['👍']);
    expect(code(() => d.react({ comment: id }, 'u1', ['not an emoji'], []))).toBe('invalid');
    expect(code(() => d.react({ comment: id }, 'u1', [], ['']))).toBe('invalid');
    expect(code(() => d.react({ comment: 'nope' }, 'u1', ['👍'], []))).toBe('not-found');
  });

  it('validates reaction strings', () => {
    for (const ok of ['👍', '👨‍👩‍👧', '❤️', '1f44d']) expect(isReactionEmoji(ok), ok).toBe(true);
    for (const bad of ['', 'x', ':+1:', '<b>', '👍 ']) expect(isReactionEmoji(bad), bad).toBe(false);
  });

  it('replies: post, edit, react, delete, and deleting a comment removes its replies', () => {
    const { d } = fresh();
    const id = d.postComment({ author: 'u1', markdown: 'Q' });
    const r1 = d.postReply(id, { author: 'u2', markdown: 'A1' });
    const r2 = d.postReply(id, { author: 'u3', markdown: 'A2' });
    expect(d.getComment(id)!.replies.map((r) => r.id)).toEqual([r1, r2]);
    d.editBody({ comment: id, reply: r1 }, 'A1 edited');
    d.react({ comment: id, reply: r1 }, 'u1', ['✅'], []);
    expect(d.getReply(id, r1)).toMatchObject({
      author: 'u2',
      markdown: 'A1 edited',
      editedAt: expect.any(String),
      reactions: [{ emoji: '✅' }],
    });
    expect(code(() => d.postReply('nope', { author: 'u1', markdown: 'x' }))).toBe('not-found');
    expect(code(() => d.editBody({ comment: id, reply: 'nope' }, 'x'))).toBe('not-found');
    expect(d.deleteReply(id, r2)).toBe(true);
    expect(d.deleteReply(id, r2)).toBe(false);
    expect(d.getComment(id)!.replies).toHaveLength(1);
    expect(d.deleteComment(id)).toBe(true);
    expect(d.deleteComment(id)).toBe(false);
    expect(d.getReply(id, r1)).toBeUndefined();
  });

  it('replicates: a replica fed the updates reads the same discussion', () => {
    const { d, ydoc } = fresh();
    const id = d.postComment({ author: 'u1', markdown: 'Hello', target: { page: 'p' } });
    d.postReply(id, { author: 'u2', markdown: 'World' });
    d.react({ comment: id }, 'u2', ['👍'], []);
    d.setResolved(id, true, 'u2');
    const replica = new Y.Doc();
    Y.applyUpdate(replica, Y.encodeStateAsUpdate(ydoc));
    expect(new DiscussionDoc(replica).listComments()).toEqual(d.listComments());
  });

  it('writes each operation as one transaction (one update per write)', () => {
    const { d, ydoc } = fresh();
    const updates: Uint8Array[] = [];
    ydoc.on('update', (u: Uint8Array) => updates.push(u));
    const id = d.postComment({ author: 'u1', markdown: 'x' });
    d.react({ comment: id }, 'u1', ['👍', '🎉'], ['🎉']);
    expect(updates).toHaveLength(2);
  });
});
