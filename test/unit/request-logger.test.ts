import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../../sync-server/observability/request-logger';

/**
 * The per-request logger Fastify gets (app.ts childLoggerFactory): pino's
 * child made on the first enabled line, so lines look exactly like a child's
 * while a request that logs nothing at an enabled level never makes one.
 */
function captured(level: string) {
  const lines: Record<string, unknown>[] = [];
  const root = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { root, lines };
}

describe('requestLogger', () => {
  it('writes lines bound to the request, with pino formatting, only at enabled levels', () => {
    const { root, lines } = captured('info');
    const log = requestLogger(root, { reqId: 'r-1' }, {});
    log.debug({ a: 1 }, 'hidden');
    log.trace('hidden too');
    expect(lines).toEqual([]);
    log.info({ a: 1 }, 'shown %s', 'here');
    log.error(new Error('boom'));
    expect(lines.map((l) => [l.level, l.reqId, l.msg, l.a])).toEqual([
      [30, 'r-1', 'shown here', 1],
      [50, 'r-1', 'boom', undefined],
    ]);
    expect((lines[1]!.err as { message: string }).message).toBe('boom');
  });

  it('follows its level: the parent while no child exists, its own once set', () => {
    const { root, lines } = captured('warn');
    const log = requestLogger(root, { reqId: 'r-2' }, {});
    expect(log.level).toBe('warn');
    log.info('no');
    log.level = 'debug';
    expect(log.level).toBe('debug');
    expect(root.level).toBe('warn');
    log.debug('yes');
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([['yes', 'r-2']]);
  });

  it("makes children that carry the request's bindings and their own", () => {
    const { root, lines } = captured('info');
    requestLogger(root, { reqId: 'r-3' }, {}).child({ part: 'sync' }).warn('w');
    expect(lines).toMatchObject([{ reqId: 'r-3', part: 'sync', msg: 'w', level: 40 }]);
  });

  it("gives a route with a level of its own pino's child at once", () => {
    const { root, lines } = captured('info');
    const log = requestLogger(root, { reqId: 'r-4' }, { level: 'debug' });
    log.debug('route-level debug');
    expect(lines).toMatchObject([{ reqId: 'r-4', msg: 'route-level debug' }]);
  });
});
