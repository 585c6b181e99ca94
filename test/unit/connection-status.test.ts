import { expect, it } from 'vitest';
import { combineStates } from '../../renderer/src/sync/connection-status';

/**
 * The header's status badge: the browser's own offline state wins over
 * sockets that have not noticed yet (issue 14: it stayed "Online" with the
 * network gone); a refusal still says why.
 */
it('is offline whenever the browser is, whatever the sockets say', () => {
  expect(combineStates(['online', 'online'], 0, false)).toBe('offline');
  expect(combineStates(['syncing'], 2, false)).toBe('offline');
  expect(combineStates(['online', 'online'], 0, true)).toBe('online');
});

it('keeps a refusal visible offline too', () => {
  expect(combineStates(['refused', 'online'], 0, false)).toBe('refused');
});
