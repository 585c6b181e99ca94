import { describe, expect, it } from 'vitest';
import { reviewSummary } from '../../renderer/src/change-requests/review-summary';
import { relativeTime, revisionTypeLabel } from '../../renderer/src/history/time';

/** The words the review and history UIs put on states and times. */
describe('reviewSummary', () => {
  it('counts the current verdicts', () => {
    expect(reviewSummary([])).toBe('No reviews yet');
    expect(reviewSummary([{ status: 'approved' }])).toBe('1 approval');
    expect(reviewSummary([{ status: 'approved' }, { status: 'changes-requested' }, { status: 'approved' }])).toBe(
      '2 approvals, 1 changes requested',
    );
    expect(reviewSummary([{ status: 'changes-requested' }])).toBe('1 changes requested');
  });
});

describe('history labels', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('says how long ago', () => {
    expect(relativeTime('2026-11-25T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-11-25T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-11-25T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-11-24T12:00:00Z', now)).toBe('yesterday');
    expect(relativeTime('2026-11-21T12:00:00Z', now)).toBe('4 days ago');
    expect(relativeTime('not a date', now)).toBe('');
  });
  it('names revision types', () => {
    expect(revisionTypeLabel('merge')).toBe('Merged a change request');
    expect(revisionTypeLabel('edits')).toBe('Edited');
    expect(revisionTypeLabel('custom')).toBe('Custom');
  });
});
