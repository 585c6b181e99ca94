import { Redis } from 'ioredis';
import type { Fanout, FanoutHandlers } from './fanout';
import { decodeMessage, encodeMessage, MessageKind, newProcessId } from './envelope';

/** The pino-compatible subset fan-out logs through. */
interface FanoutLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Counters for /metrics. */
export interface FanoutStats {
  published: number;
  publishFailures: number;
  received: number;
  resyncs: number;
}

/**
 * Fan-out over Redis pub/sub: one channel per loaded document
 * (`<prefix>:doc:<name>`) carrying committed updates and awareness, and one
 * channel for the whole deployment (`<prefix>:all`: read-cache invalidations
 * and resync requests).
 *
 * Pub/sub, not streams: every update is already durable in PostgreSQL before it
 * is published, so Redis only has to be fast, not reliable. Whatever a process
 * misses while a connection is down it reads back from the database: after
 * its subscriber reconnects it resyncs, and after its publisher reconnects it
 * asks every process to resync (its own publishes may have been dropped).
 * Streams would keep messages across a short outage, but not across a Redis
 * restart (this Redis keeps nothing on disk), so the database catch-up is
 * needed either way and streams would add trimming and consumer bookkeeping.
 */
export class RedisFanout implements Fanout {
  readonly stats: FanoutStats = { published: 0, publishFailures: 0, received: 0, resyncs: 0 };
  private readonly id = newProcessId();
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly allChannel: string;
  private handlers: FanoutHandlers | undefined;
  private invalidateQueued = false;
  private closed = false;

  constructor(
    url: string,
    private readonly prefix: string,
    private readonly log: FanoutLogger,
  ) {
    const options = {
      lazyConnect: true,
      // Never queue publishes while disconnected: the database is the catch-up path, and an
      // unbounded offline queue would grow for as long as Redis is away.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      retryStrategy: (attempt: number) => Math.min(50 * attempt, 1_000),
    };
    this.pub = new Redis(url, options);
    // The subscriber may queue its SUBSCRIBE commands until it is connected.
    this.sub = new Redis(url, { ...options, enableOfflineQueue: true, maxRetriesPerRequest: null });
    this.allChannel = `${prefix}:all`;
  }

  get connected(): boolean {
    return this.pub.status === 'ready' && this.sub.status === 'ready';
  }

  async start(handlers: FanoutHandlers): Promise<void> {
    this.handlers = handlers;
    for (const [name, conn] of [
      ['publisher', this.pub],
      ['subscriber', this.sub],
    ] as const) {
      conn.on('error', (err: Error) =>
        this.log.warn({ err: err.message, connection: name }, 'fanout: Redis connection error'),
      );
    }
    this.sub.on('messageBuffer', (channel: Buffer, message: Buffer) => this.deliver(channel.toString(), message));
    await Promise.all([this.pub.connect(), this.sub.connect()]);
    await this.sub.subscribe(this.allChannel);
    // From now on every re-established connection means messages may have been lost.
    this.sub.on('ready', () => void this.afterSubscriberReconnect());
    this.pub.on('ready', () => {
      this.log.info({}, 'fanout: Redis publisher reconnected; asking every process to resync');
      this.publish(this.allChannel, MessageKind.resync);
    });
  }

  async subscribe(doc: string): Promise<void> {
    await this.sub.subscribe(this.docChannel(doc));
  }

  unsubscribe(doc: string): void {
    if (this.closed) return;
    this.sub.unsubscribe(this.docChannel(doc)).catch(() => undefined);
  }

  publishUpdate(doc: string, update: Uint8Array): void {
    this.publish(this.docChannel(doc), MessageKind.update, update);
  }

  publishAwareness(doc: string, update: Uint8Array): void {
    this.publish(this.docChannel(doc), MessageKind.awareness, update);
  }

  /** Coalesced: many writes in one event-loop turn send one message. */
  publishInvalidate(): void {
    if (this.invalidateQueued) return;
    this.invalidateQueued = true;
    setImmediate(() => {
      this.invalidateQueued = false;
      this.publish(this.allChannel, MessageKind.invalidate);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.pub.removeAllListeners('ready');
    this.sub.removeAllListeners('ready');
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
    this.pub.disconnect();
    this.sub.disconnect();
  }

  private docChannel(doc: string): string {
    return `${this.prefix}:doc:${doc}`;
  }

  private publish(channel: string, kind: MessageKind, payload?: Uint8Array): void {
    if (this.closed) return;
    if (this.pub.status !== 'ready') {
      this.stats.publishFailures++;
      return;
    }
    this.stats.published++;
    this.pub.publish(channel, encodeMessage(kind, this.id, payload)).catch(() => {
      this.stats.publishFailures++;
    });
  }

  private async afterSubscriberReconnect(): Promise<void> {
    if (this.closed) return;
    // ioredis re-sends our SUBSCRIBEs when it reconnects; replies come in order, so once this one is
    // confirmed every channel is subscribed again and a database read from now on misses nothing.
    await this.sub.subscribe(this.allChannel).catch(() => undefined);
    this.log.info({}, 'fanout: Redis subscriber reconnected; catching up from the database');
    this.resync();
  }

  private resync(): void {
    this.stats.resyncs++;
    this.handlers?.resync();
  }

  private deliver(channel: string, message: Buffer): void {
    const decoded = decodeMessage(message);
    if (!decoded || !this.handlers || decoded.sender.equals(this.id)) return;
    this.stats.received++;
    const docPrefix = `${this.prefix}:doc:`;
    switch (decoded.kind) {
      case MessageKind.update:
      case MessageKind.awareness: {
        if (!channel.startsWith(docPrefix)) return;
        const doc = channel.slice(docPrefix.length);
        if (decoded.kind === MessageKind.update) this.handlers.update(doc, decoded.payload, decoded.sentAt);
        else this.handlers.awareness(doc, decoded.payload);
        return;
      }
      case MessageKind.invalidate:
        this.handlers.invalidate();
        return;
      case MessageKind.resync:
        this.resync();
        return;
    }
  }
}
