import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString } from 'pino';

/**
 * A request's logger (`request.log`) that makes its pino child, bound to the
 * request id, only when a line is written at an enabled level. Fastify makes
 * one logger per request; pino's child serializes its bindings as it is made
 * (~1 µs), while a read answered from memory writes no line at the default
 * level (observability/request-log.ts logs reads at debug). Lines, bindings,
 * levels and serializers are pino's own once the child exists.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings));
  }

  /** Whether a line at `level` would be written: the parent's level until the child exists (it inherits it). */
  private enabled(level: Level): boolean {
    const logger = this.made ?? this.parent;
    return (logger as { isLevelEnabled?(l: string): boolean }).isLevelEnabled?.(level) ?? true;
  }

  get level(): LevelWithSilentOrString {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.real.level = level;
  }

  private write(level: Level, args: unknown[]): void {
    if (this.enabled(level)) (this.real[level] as (...line: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy child (above) for every request,
 * except on a route with a log level or serializers of its own, which gets
 * pino's child at once (none does today).
 */
export function requestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings);
}
