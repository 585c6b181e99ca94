import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, MessageKind, newProcessId } from '../../sync-server/fanout/envelope';

describe('fan-out message envelope', () => {
  it('carries kind, sender, send time and payload through a round trip', () => {
    const sender = newProcessId();
    const payload = new Uint8Array([1, 2, 3, 250]);
    const decoded = decodeMessage(encodeMessage(MessageKind.update, sender, payload, 1_790_000_000_123.5));
    expect(decoded?.kind).toBe(MessageKind.update);
    expect(decoded?.sender.equals(sender)).toBe(true);
    expect(decoded?.sentAt).toBe(1_790_000_000_123.5);
    expect([...decoded!.payload]).toEqual([1, 2, 3, 250]);
  });

  it('stamps the send time when none is given, and allows an empty payload', () => {
    const before = Date.now();
    const decoded = decodeMessage(encodeMessage(MessageKind.resync, newProcessId()));
    expect(decoded?.kind).toBe(MessageKind.resync);
    expect(decoded!.sentAt).toBeGreaterThanOrEqual(before);
    expect(decoded!.payload.byteLength).toBe(0);
  });

  it('rejects what is too short, of an unknown kind, or with a broken send time', () => {
    const good = encodeMessage(MessageKind.awareness, newProcessId(), new Uint8Array([9]));
    expect(decodeMessage(good.subarray(0, 16))).toBeUndefined();
    const unknownKind = Buffer.from(good);
    unknownKind[0] = 77;
    expect(decodeMessage(unknownKind)).toBeUndefined();
    const brokenTime = Buffer.from(good);
    brokenTime.writeDoubleBE(Number.NaN, 9);
    expect(decodeMessage(brokenTime)).toBeUndefined();
  });
});
