import { hash as digest } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { compileTrust, type Config } from '../config';

/** The pino-compatible subset the limiter logs through. */
interface LimiterLogger {
  warn(obj: object, msg: string): void;
}

/** Seconds a refused caller must wait (the `Retry-After` value), or 0 when the request may go on. */
export type Wait = number;

/**
 * A request's claim on the failed-authentication budget of its client
 * address, taken before its token is checked (so parallel guesses cannot all
 * slip past the limit) and settled once the answer is known.
 */
export interface AuthAttempt {
  /** > 0: refuse with 429 and this `Retry-After`; the attempt holds no claim then. */
  readonly wait: Wait;
  /** Whether this attempt holds a credit (then `settle` must be called once the request is answered). */
  readonly claimed: boolean;
  /**
   * 'failed' (the token was refused: the claim stays spent), 'accepted' (the
   * token is valid: the claim is given back and the token skips this check
   * from now on) or 'other' (no verdict on the token, e.g. the database was
   * down: the claim is given back).
   */
  settle(outcome: 'failed' | 'accepted' | 'other'): void;
}

const NOTHING_TO_SETTLE: AuthAttempt = { wait: 0, claimed: false, settle: () => undefined };

/** How many recently accepted tokens each process remembers (FIFO beyond that). */
const KNOWN_TOKENS = 10_000;
/** At most this many claims are shared at once (beyond, each request claims its own: never unbounded memory). */
const PENDING_CLAIMS = 10_000;

/**
 * The rate limits of one server process: failed authentications per client
 * address (token guessing), REST writes (and optionally reads) per token,
 * requests without a token per client address, and requests to the sign-in
 * routes per client address (their own budget: each may start a sign-in that
 * leaves a pending row behind). Counters live in Redis
 * when FOLIO_REDIS_URL is set, so every process of a deployment counts
 * together; otherwise in this process. Framework-free: the HTTP hooks
 * (rate-limit.ts) and the WebSocket upgrade path (docs/ws.ts) share it.
 *
 * Counter keys are a client address (IPv6 grouped by /64: one host usually
 * owns a whole /64, and per-address counting would give it 2^64 budgets) or
 * the SHA-256 of a token, never the token itself: they may live in Redis.
 */
export class RateLimits {
  /** Fastify's `trustProxy` (the same rule names upgrade clients), or false. */
  readonly trustProxy: ((address: string, hop: number) => boolean) | false;
  // Not readonly: they move to Redis once ioredis has loaded (`share`).
  private failures: RateLimiterAbstract | undefined;
  private writes: RateLimiterAbstract | undefined;
  private reads: RateLimiterAbstract | undefined;
  private anonymous: RateLimiterAbstract | undefined;
  private signIn: RateLimiterAbstract | undefined;
  private redis: Redis | undefined;
  private closed = false;
  /**
   * Tokens this process has recently seen accepted, each with the attempt its
   * requests get. A request with one of them skips the failed-authentication
   * check: it cannot be a guess, so its holder keeps working while someone
   * behind the same address (a NAT, an office) is throttled, and the hot path
   * of an authenticated API client never waits on Redis for that check, nor
   * hashes or allocates anything. Keyed by the token itself: this map never
   * leaves the process's memory, where every request's headers already are.
   */
  private readonly known = new Map<string, AuthAttempt>();
  /** Claims being decided, by address and token hash: parallel requests with that token wait on them. */
  private readonly pending = new Map<string, Promise<Wait>>();

  private constructor(
    private readonly config: Config,
    private readonly log: LimiterLogger,
  ) {
    this.trustProxy = config.trustProxy ? compileTrust(config.trustProxy) : false;
    const limiter = (name: string, points: number) =>
      points > 0 ? counter(name, points, config.rateLimitWindowS, undefined, config.redisPrefix) : undefined;
    this.failures = limiter('auth-failures', config.rateLimitAuthFailures);
    this.writes = limiter('writes', config.rateLimitWrites);
    this.reads = limiter('reads', config.rateLimitReads);
    this.anonymous = limiter('anonymous', config.rateLimitAnonymous);
    this.signIn = limiter('sign-in', config.rateLimitSignIn);
  }

  /**
   * The limits configured in `config`, shared through Redis when
   * FOLIO_REDIS_URL is set. Does not wait for Redis: until it answers (and
   * whenever it is away) each process counts on its own, rather than failing
   * requests or letting everything through.
   */
  static open(config: Config, log: LimiterLogger): RateLimits {
    const limited =
      config.rateLimitAuthFailures +
        config.rateLimitWrites +
        config.rateLimitReads +
        config.rateLimitAnonymous +
        config.rateLimitSignIn >
      0;
    const limits = new RateLimits(config, log);
    // ioredis loads only when Redis is configured, and not on the boot path: until it has loaded
    // and connected, counting in this process is what a Redis still connecting gets anyway.
    const redisUrl = config.redisUrl;
    if (limited && redisUrl) {
      void import('ioredis').then(
        ({ Redis }) => limits.share(connect(new Redis(redisUrl, REDIS_OPTIONS), log)),
        (err: unknown) => limits.warn(err),
      );
    }
    return limits;
  }

  /** Moves every counter family to Redis; the in-process counters so far become their insurance. */
  private share(redis: Redis): void {
    if (this.closed) {
      redis.disconnect();
      return;
    }
    this.redis = redis;
    const { rateLimitWindowS: windowS, redisPrefix: prefix } = this.config;
    const shared = (name: string, memory: RateLimiterAbstract | undefined) =>
      memory && counter(name, memory.points, windowS, redis, prefix, memory as RateLimiterMemory);
    this.failures = shared('auth-failures', this.failures);
    this.writes = shared('writes', this.writes);
    this.reads = shared('reads', this.reads);
    this.anonymous = shared('anonymous', this.anonymous);
    this.signIn = shared('sign-in', this.signIn);
  }

  /** Whether failed authentications are limited (else `attempt` never refuses). */
  get limitsFailures(): boolean {
    return this.failures !== undefined;
  }

  /** Whether requests without a token are limited per address. */
  get limitsAnonymous(): boolean {
    return this.anonymous !== undefined;
  }

  /** Whether requests to the sign-in routes (/auth/*) are limited per address. */
  get limitsSignIn(): boolean {
    return this.signIn !== undefined;
  }

  /**
   * How many sign-ins may be in progress at once per client address (pending
   * rows of store/sign-in-requests.ts), 0 for no cap. Counted in the database,
   * which every process shares: not a window, a ceiling.
   */
  get pendingSignInCap(): number {
    return this.config.rateLimitPendingSignIns;
  }

  /** The client address of a raw request (X-Forwarded-For only from a trusted proxy): Fastify's `request.ip`. */
  addressOf(req: IncomingMessage): string {
    return this.trustProxy ? proxyAddr(req, this.trustProxy) : (req.socket.remoteAddress ?? '');
  }

  /**
   * Claims one failed-authentication credit of `address` for a request
   * presenting `token` (or none). A token this process has seen accepted
   * claims nothing and is never refused, synchronously (the hot path of
   * every authenticated request).
   */
  attempt(address: string, token: string | undefined): AuthAttempt | Promise<AuthAttempt> {
    const failures = this.failures;
    if (!failures) return NOTHING_TO_SETTLE;
    const known = token === undefined ? undefined : this.known.get(token);
    if (known) return known;
    const hash = token ? tokenHash(token) : undefined;
    const key = addressKey(address);
    // A client's parallel first requests with one token (a page load, sockets reconnecting after a restart)
    // share one claim: the same token checked twice tells a guesser nothing more, so only the first claims.
    const pair = hash && `${key} ${hash}`;
    const first = pair ? this.pending.get(pair) : undefined;
    if (first) return first.then((wait) => ({ wait, claimed: false, settle: () => undefined }));
    const claim = this.hit(failures, key);
    if (pair && this.pending.size < PENDING_CLAIMS) this.pending.set(pair, claim);
    const done = () => {
      if (pair && this.pending.get(pair) === claim) this.pending.delete(pair);
    };
    return claim.then((wait): AuthAttempt => {
      if (wait > 0) {
        done();
        return { wait, claimed: false, settle: () => undefined };
      }
      let settled = false;
      return {
        wait: 0,
        claimed: true,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          done();
          if (outcome === 'failed') return;
          if (outcome === 'accepted' && token) this.remember(token);
          failures.reward(key).catch((err: unknown) => this.warn(err));
        },
      };
    });
  }

  /** Whether REST reads (`read`) or writes count per token. */
  limitsToken(read: boolean): boolean {
    return (read ? this.reads : this.writes) !== undefined;
  }

  /** Counts one REST request of `token` (a write unless `read`): the wait, 0 when within the limit. */
  forToken(token: string, read: boolean): Promise<Wait> {
    const limiter = read ? this.reads : this.writes;
    return limiter ? this.hit(limiter, tokenHash(token)) : Promise.resolve(0);
  }

  /** Counts one request without a token from `address`: the wait, 0 when within the limit. */
  forAnonymous(address: string): Promise<Wait> {
    return this.anonymous ? this.hit(this.anonymous, addressKey(address)) : Promise.resolve(0);
  }

  /** Counts one request to a sign-in route from `address`: the wait, 0 when within the limit. */
  forSignIn(address: string): Promise<Wait> {
    return this.signIn ? this.hit(this.signIn, addressKey(address)) : Promise.resolve(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.redis?.disconnect();
  }

  private remember(token: string): void {
    if (this.known.has(token)) return;
    if (this.known.size >= KNOWN_TOKENS) this.known.delete(this.known.keys().next().value!);
    // One attempt object per known token, shared by all its requests.
    const attempt: AuthAttempt = {
      wait: 0,
      claimed: false,
      settle: (outcome) => {
        // A revoked token: from now on it is checked like any other.
        if (outcome === 'failed' && this.known.get(token) === attempt) this.known.delete(token);
      },
    };
    this.known.set(token, attempt);
  }

  /** Consumes one point: 0 within the limit, else the seconds until the window ends. Fails open on a store error. */
  private async hit(limiter: RateLimiterAbstract, key: string): Promise<Wait> {
    try {
      await limiter.consume(key);
      return 0;
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
      this.warn(err);
      return 0;
    }
  }

  private warn(err: unknown): void {
    this.log.warn({ err: (err as Error)?.message }, 'rate limit: counter unavailable');
  }
}

/**
 * One family of counters: `points` per `windowS` per key (a fixed window:
 * bursts up to `points` are allowed). In Redis, with an in-process counter as
 * insurance while Redis is away.
 */
function counter(
  name: string,
  points: number,
  windowS: number,
  redis: Redis | undefined,
  prefix: string,
  memory = new RateLimiterMemory({ keyPrefix: name, points, duration: windowS }),
): RateLimiterAbstract {
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${prefix}:rate:${name}`,
    points,
    duration: windowS,
    // Not ready (connecting, reconnecting): count in this process at once instead of queueing.
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** A Redis connection for counters: commands fail fast while it is down (the insurance counts meanwhile). */
const REDIS_OPTIONS = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  retryStrategy: (attempt: number) => Math.min(50 * attempt, 1_000),
};

/** Reports the connection's errors once per outage. */
function connect(redis: Redis, log: LimiterLogger): Redis {
  let reported = false;
  redis.on('error', (err: Error) => {
    // Once per outage: a Redis that stays away would otherwise log every reconnection attempt.
    if (!reported) log.warn({ err: err.message }, 'rate limit: Redis connection error; counting in this process');
    reported = true;
  });
  redis.on('ready', () => (reported = false));
  return redis;
}

/**
 * The counter key of a client address: IPv4 (also IPv4-mapped IPv6) as is,
 * IPv6 by its /64 prefix. An attacker owning a /64 would otherwise rotate
 * through 2^64 fresh budgets.
 */
export function addressKey(address: string): string {
  if (!address.includes(':') || !ipaddr.isValid(address)) return address;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/**
 * The plain SHA-256 (hex) of a token: the in-memory fingerprint of ids.ts
 * hashToken (not the keyed digest the database stores), through the one-shot
 * API, ~3x cheaper on the hot path.
 */
function tokenHash(token: string): string {
  return digest('sha256', token, 'hex');
}
