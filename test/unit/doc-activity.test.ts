import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocActivity } from '../../sync-server/docs/doc-activity';

/** The bookkeeping that decides when a loaded document may unload, when readers may look, and when to compact. */
describe('DocActivity', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports idle only when the last hold is released, and a new hold calls off a scheduled unload', () => {
    vi.useFakeTimers();
    const a = new DocActivity();
    const unload = vi.fn();
    a.hold();
    a.hold();
    expect(a.releaseHold()).toBe(false);
    expect(a.held).toBe(true);
    expect(a.releaseHold()).toBe(true);
    expect(a.held).toBe(false);
    a.unloadAfter(100, unload);
    a.hold();
    vi.advanceTimersByTime(200);
    expect(unload).not.toHaveBeenCalled();
    expect(a.releaseHold()).toBe(true);
    a.unloadAfter(100, unload);
    vi.advanceTimersByTime(100);
    expect(unload).toHaveBeenCalledOnce();
  });

  it('holds readers back until every server-side change settled', () => {
    const a = new DocActivity();
    const read = vi.fn();
    a.whenLocalCommitted(read);
    expect(read).toHaveBeenCalledOnce();
    a.localStarted();
    a.localStarted();
    a.whenLocalCommitted(read);
    a.localSettled();
    expect(read).toHaveBeenCalledOnce();
    expect(a.hasWritesInFlight()).toBe(true);
    a.localSettled();
    expect(read).toHaveBeenCalledTimes(2);
    expect(a.hasWritesInFlight()).toBe(false);
  });

  it('counts queued writes as in flight', () => {
    const a = new DocActivity();
    a.enqueued();
    expect(a.hasWritesInFlight()).toBe(true);
    a.dequeued();
    expect(a.hasWritesInFlight()).toBe(false);
  });

  it('ending runs the waiting readers (they see broken) and stops the idle timer', () => {
    vi.useFakeTimers();
    const a = new DocActivity();
    const unload = vi.fn();
    const seen: boolean[] = [];
    a.localStarted();
    a.whenLocalCommitted(() => seen.push(a.broken));
    a.unloadAfter(100, unload);
    a.end();
    expect(seen).toEqual([true]);
    vi.advanceTimersByTime(200);
    expect(unload).not.toHaveBeenCalled();
  });

  it('keeps commits that landed during a compaction in the tail, and never goes below zero', () => {
    const a = new DocActivity();
    a.resetTail(3, 30);
    a.recordStored(5);
    a.tailCompacted(3, 30);
    expect([a.tailCount, a.tailBytes]).toEqual([1, 5]);
    a.tailCompacted(10, 100);
    expect([a.tailCount, a.tailBytes]).toEqual([0, 0]);
  });
});
