import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

/** Every setting of the sync server, in one typed place. */
export interface Config {
  port: number;
  host: string;
  /** Folder of the embedded PGlite database, blobs and the admin-token file. */
  dataDir: string;
  /** postgres://… selects PostgreSQL; absent means embedded PGlite in dataDir. */
  databaseUrl: string | undefined;
  /** Base of every `urls.*` field (no trailing slash). */
  publicUrl: string;
  /** When set, the instance admin's API token is exactly this value. */
  adminToken: string | undefined;
  /** smtp://… to send invite emails; absent logs the join links instead. */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** Log level for pino ('silent' in tests). */
  logLevel: string;
  /** Live edits become a revision once a document has been quiet this long (ms). */
  revisionQuietMs: number;
  /** Time budget of one markdown parse in the worker pool (ms); past it the page is shown as plain text. */
  markdownTimeoutMs: number;
  /** When set, GET /metrics needs `Authorization: Bearer <this>`. */
  metricsToken: string | undefined;
  /** redis://… enables fan-out between several server processes sharing one PostgreSQL. */
  redisUrl: string | undefined;
  /** Prefix of every Redis channel, so several deployments can share one Redis. */
  redisPrefix: string;
  /** Reverse proxies whose X-Forwarded-For names the client (proxy-addr list), or undefined to trust none. */
  trustProxy: string | undefined;
  /** FOLIO_OUTBOUND_ALLOW: internal hosts, IPs or CIDRs the server may fetch URLs from (comma-separated; empty = public addresses only). */
  outboundAllow: string | undefined;
  /** FOLIO_IMPORT_MAX_PAGES: most pages one website import fetches (breadth-first from its start page). */
  importMaxPages: number;
  /** FOLIO_IMPORT_MAX_FILE_BYTES: largest image or file one import keeps (a larger one is skipped and reported in the run). */
  importMaxFileBytes: number;
  /** FOLIO_JOB_LEASE_MS: how long a running job's claim lasts without renewal (a killed process's jobs wait this long). */
  jobLeaseMs: number;
  /** FOLIO_GIT_MAX_BYTES: most bytes one Git sync operation downloads, and most bytes of files one read of a branch holds. */
  gitMaxBytes: number;
  /** FOLIO_SECRET_KEY: the key (32 bytes, base64) sealing stored secrets such as Git credentials; unset = `<dataDir>/secret.key`. */
  secretKey: string | undefined;
  /** FOLIO_TRANSLATE_ENGINE: which translation engine runs translations (none configured: a run fails saying so). */
  translateEngine: 'libretranslate' | 'openai' | undefined;
  /** FOLIO_TRANSLATE_URL: the engine's base URL (LibreTranslate: its root; OpenAI-compatible: the base before /chat/completions). */
  translateUrl: string | undefined;
  /** FOLIO_TRANSLATE_KEY: the engine's API key (LibreTranslate `api_key`; OpenAI-compatible bearer token). */
  translateKey: string | undefined;
  /** FOLIO_TRANSLATE_MODEL: the chat model of an OpenAI-compatible engine. */
  translateModel: string | undefined;
  /** The window of every rate limit (s). */
  rateLimitWindowS: number;
  /** Failed authentications per client address and window before it gets 429 (0: unlimited). */
  rateLimitAuthFailures: number;
  /** REST writes per token and window (0: unlimited). */
  rateLimitWrites: number;
  /** REST reads per token and window (0: unlimited). */
  rateLimitReads: number;
  /** Requests without a token (published sites, public API routes) per client address and window (0: unlimited). */
  rateLimitAnonymous: number;
  /** Requests to the sign-in routes (/auth/*) per client address and window (0: unlimited). */
  rateLimitSignIn: number;
  /** Sign-ins in progress (pending SAML, OIDC, email-link, device-code steps) per client address (0: no cap). */
  rateLimitPendingSignIns: number;
  /** OpenID Connect sign-in: the provider's issuer URL (discovery at /.well-known/openid-configuration); off when unset. */
  oidcIssuer: string | undefined;
  /** The client id registered at the OpenID provider for this server. */
  oidcClientId: string | undefined;
  /** The client secret registered at the OpenID provider (confidential client). */
  oidcClientSecret: string | undefined;
  /** The sign-in button's name for the OpenID provider ("Continue with <label>"). */
  oidcLabel: string;
  /** Whether people may ask for an email sign-in link (sent by SMTP, or logged without it). */
  emailSignIn: boolean;
  /** DNS servers (`host` or `host:port`) that domain verification asks for TXT records; empty = the system's. */
  dnsServers: string[];
  /** FOLIO_S3_BUCKET: keep file bytes in this S3-compatible bucket instead of `<dataDir>/blobs`. */
  s3Bucket: string | undefined;
  /** FOLIO_S3_ENDPOINT: the S3-compatible server's URL (MinIO, Ceph RGW, R2, Garage); unset = AWS S3. */
  s3Endpoint: string | undefined;
  /** FOLIO_S3_REGION: the bucket's region (default AWS_REGION, else us-east-1). */
  s3Region: string | undefined;
  /** FOLIO_S3_PREFIX: prepended to every object key ('' or ending in '/'). */
  s3Prefix: string;
  /** FOLIO_S3_FORCE_PATH_STYLE: address objects as endpoint/bucket/key (MinIO, Ceph). */
  s3ForcePathStyle: boolean;
}

interface Setting {
  env: string;
  flag: string;
  help: string;
  default?: string;
}

/** The table behind --help, the env names and the flags. */
export const SETTINGS: Record<keyof Config, Setting> = {
  port: { env: 'FOLIO_PORT', flag: 'port', help: 'TCP port to listen on (0 picks a free one)', default: '8080' },
  host: { env: 'FOLIO_HOST', flag: 'host', help: 'interface to listen on (0.0.0.0 for all)', default: '127.0.0.1' },
  dataDir: {
    env: 'FOLIO_DATA_DIR',
    flag: 'data-dir',
    help: 'data folder (PGlite database, blobs, admin-token)',
    default: './data',
  },
  databaseUrl: {
    env: 'FOLIO_DATABASE_URL',
    flag: 'database-url',
    help: 'postgres://user@host/db to use PostgreSQL instead of PGlite',
  },
  publicUrl: {
    env: 'FOLIO_PUBLIC_URL',
    flag: 'public-url',
    help: 'public base URL used in every urls.* field (default http://HOST:PORT)',
  },
  adminToken: {
    env: 'FOLIO_ADMIN_TOKEN',
    flag: 'admin-token',
    help: 'fixed API token of the instance admin (otherwise generated once)',
  },
  smtpUrl: {
    env: 'FOLIO_SMTP_URL',
    flag: 'smtp-url',
    help: 'smtp://user:pass@host:port for invite emails (otherwise links are logged)',
  },
  smtpFrom: {
    env: 'FOLIO_SMTP_FROM',
    flag: 'smtp-from',
    help: 'sender address of invite emails',
    default: 'Folio <folio@localhost>',
  },
  logLevel: {
    env: 'FOLIO_LOG_LEVEL',
    flag: 'log-level',
    help: 'fatal | error | warn | info | debug | silent',
    default: 'info',
  },
  metricsToken: {
    env: 'FOLIO_METRICS_TOKEN',
    flag: 'metrics-token',
    help: 'bearer token Prometheus must send to /metrics (open when unset)',
  },
  redisUrl: {
    env: 'FOLIO_REDIS_URL',
    flag: 'redis-url',
    help: 'redis://host:port to run several processes against one PostgreSQL (fan-out)',
  },
  redisPrefix: {
    env: 'FOLIO_REDIS_PREFIX',
    flag: 'redis-prefix',
    help: 'prefix of the Redis channels (one per deployment)',
    default: 'folio',
  },
  trustProxy: {
    env: 'FOLIO_TRUST_PROXY',
    flag: 'trust-proxy',
    help: 'reverse proxies whose X-Forwarded-For names the client: IPs/CIDRs or loopback, comma-separated',
  },
  outboundAllow: {
    env: 'FOLIO_OUTBOUND_ALLOW',
    flag: 'outbound-allow',
    help: 'internal hosts, IPs or CIDRs the server may fetch URLs from (comma-separated; default: public addresses only)',
  },
  importMaxPages: {
    env: 'FOLIO_IMPORT_MAX_PAGES',
    flag: 'import-max-pages',
    help: 'most pages one website import fetches, breadth-first from its start page (1..1000)',
    default: '50',
  },
  importMaxFileBytes: {
    env: 'FOLIO_IMPORT_MAX_FILE_BYTES',
    flag: 'import-max-file-bytes',
    help: 'largest image or file one import keeps, in bytes (1024..104857600); larger ones are skipped and reported',
    default: String(10 * 1024 * 1024),
  },
  jobLeaseMs: {
    env: 'FOLIO_JOB_LEASE_MS',
    flag: 'job-lease-ms',
    help: "how long a running job's claim lasts without renewal (ms, at least 1000); another process takes over a killed one's jobs after it",
    default: '30000',
  },
  gitMaxBytes: {
    env: 'FOLIO_GIT_MAX_BYTES',
    flag: 'git-max-bytes',
    help: 'most bytes one Git sync operation downloads, and most bytes of files one read of a branch holds (1048576..2147483648)',
    default: String(200 * 1024 * 1024),
  },
  secretKey: {
    env: 'FOLIO_SECRET_KEY',
    flag: 'secret-key',
    help: 'key sealing stored secrets (Git credentials): 32 bytes in base64, the same in every process (default: DATA_DIR/secret.key, made once)',
  },
  translateEngine: {
    env: 'FOLIO_TRANSLATE_ENGINE',
    flag: 'translate-engine',
    help: 'translation engine: libretranslate or openai (default: openai when FOLIO_TRANSLATE_MODEL is set, else libretranslate when FOLIO_TRANSLATE_URL is)',
  },
  translateUrl: {
    env: 'FOLIO_TRANSLATE_URL',
    flag: 'translate-url',
    help: 'base URL of the translation engine (a LibreTranslate server, or an OpenAI-compatible API such as https://api.openai.com/v1)',
  },
  translateKey: {
    env: 'FOLIO_TRANSLATE_KEY',
    flag: 'translate-key',
    help: "the translation engine's API key (optional for a self-hosted LibreTranslate)",
  },
  translateModel: {
    env: 'FOLIO_TRANSLATE_MODEL',
    flag: 'translate-model',
    help: 'chat model of an OpenAI-compatible translation engine (e.g. gpt-4o-mini)',
  },
  rateLimitWindowS: {
    env: 'FOLIO_RATE_LIMIT_WINDOW_S',
    flag: 'rate-limit-window-s',
    help: 'window of every rate limit (s)',
    default: '60',
  },
  rateLimitAuthFailures: {
    env: 'FOLIO_RATE_LIMIT_AUTH_FAILURES',
    flag: 'rate-limit-auth-failures',
    help: 'failed authentications per client address and window, then 429 (0 or off: no limit)',
    default: '20',
  },
  rateLimitWrites: {
    env: 'FOLIO_RATE_LIMIT_WRITES',
    flag: 'rate-limit-writes',
    help: 'REST writes (POST, PUT, PATCH, DELETE) per token and window (0 or off: no limit)',
    default: '1200',
  },
  rateLimitReads: {
    env: 'FOLIO_RATE_LIMIT_READS',
    flag: 'rate-limit-reads',
    help: 'REST reads per token and window (0 or off: no limit)',
    default: 'off',
  },
  rateLimitAnonymous: {
    env: 'FOLIO_RATE_LIMIT_ANONYMOUS',
    flag: 'rate-limit-anonymous',
    help: 'requests without a token (published sites, public API) per client address and window (0 or off: no limit)',
    default: '1200',
  },
  rateLimitSignIn: {
    env: 'FOLIO_RATE_LIMIT_SIGN_IN',
    flag: 'rate-limit-sign-in',
    help: 'requests to the sign-in routes (/auth/*) per client address and window (0 or off: no limit)',
    default: '300',
  },
  rateLimitPendingSignIns: {
    env: 'FOLIO_RATE_LIMIT_PENDING_SIGN_INS',
    flag: 'rate-limit-pending-sign-ins',
    help: 'sign-ins in progress (SAML, OpenID Connect, email links, device codes) per client address (0 or off: no cap)',
    default: '100',
  },
  oidcIssuer: {
    env: 'FOLIO_OIDC_ISSUER',
    flag: 'oidc-issuer',
    help: 'OpenID Connect issuer URL (Keycloak realm, Google, Entra ID, Authentik) to offer its sign-in',
  },
  oidcClientId: {
    env: 'FOLIO_OIDC_CLIENT_ID',
    flag: 'oidc-client-id',
    help: 'client id of this server at the OpenID provider',
  },
  oidcClientSecret: {
    env: 'FOLIO_OIDC_CLIENT_SECRET',
    flag: 'oidc-client-secret',
    help: 'client secret of this server at the OpenID provider',
  },
  oidcLabel: {
    env: 'FOLIO_OIDC_LABEL',
    flag: 'oidc-label',
    help: 'name of the OpenID provider on the sign-in button',
    default: 'OpenID Connect',
  },
  emailSignIn: {
    env: 'FOLIO_EMAIL_SIGN_IN',
    flag: 'email-sign-in',
    help: 'on | off: people may ask for a sign-in link by email',
    default: 'on',
  },
  dnsServers: {
    env: 'FOLIO_DNS_SERVERS',
    flag: 'dns-servers',
    help: "comma-separated DNS servers (host or host:port) that domain verification asks for TXT records; default: the system's",
  },
  s3Bucket: {
    env: 'FOLIO_S3_BUCKET',
    flag: 's3-bucket',
    help: 'keep file bytes in this S3-compatible bucket (credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY or the SDK chain); default: DATA_DIR/blobs',
  },
  s3Endpoint: {
    env: 'FOLIO_S3_ENDPOINT',
    flag: 's3-endpoint',
    help: 'URL of an S3-compatible server (MinIO, Ceph RGW, R2, Garage); default: AWS S3',
  },
  s3Region: {
    env: 'FOLIO_S3_REGION',
    flag: 's3-region',
    help: "the bucket's region (default: AWS_REGION, else us-east-1)",
  },
  s3Prefix: {
    env: 'FOLIO_S3_PREFIX',
    flag: 's3-prefix',
    help: 'prefix of every object key in the bucket (e.g. folio/)',
  },
  s3ForcePathStyle: {
    env: 'FOLIO_S3_FORCE_PATH_STYLE',
    flag: 's3-force-path-style',
    help: 'on | off: path-style bucket addressing (MinIO, Ceph usually need on)',
    default: 'off',
  },
  revisionQuietMs: {
    env: 'FOLIO_REVISION_QUIET_MS',
    flag: 'revision-quiet-ms',
    help: 'quiet period after live edits before a revision is made (ms)',
    default: '2000',
  },
  markdownTimeoutMs: {
    env: 'FOLIO_MARKDOWN_TIMEOUT_MS',
    flag: 'markdown-timeout-ms',
    help: 'time budget of one markdown parse in the worker pool (ms); slower pages are shown as plain text',
    default: '5000',
  },
};

export class ConfigError extends Error {}

/** Text printed by --help. */
export function helpText(): string {
  const lines = [
    'Usage: npm start -- [options]',
    '',
    'Every option can also be set through its environment variable.',
    '',
  ];
  for (const s of Object.values(SETTINGS)) {
    const def = s.default ? ` (default ${s.default})` : '';
    lines.push(`  --${s.flag.padEnd(14)} ${s.env.padEnd(20)} ${s.help}${def}`);
  }
  lines.push(`  --${'help'.padEnd(14)} ${''.padEnd(20)} show this text`);
  return lines.join('\n');
}

/**
 * Reads the configuration: flags win over environment variables, which win
 * over defaults. Throws ConfigError with a readable message on bad values.
 */
export function loadConfig(
  argv: string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): Config & { help: boolean } {
  const options = Object.fromEntries(Object.values(SETTINGS).map((s) => [s.flag, { type: 'string' as const }]));
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const get = (key: keyof Config): string | undefined => {
    const s = SETTINGS[key];
    const fromFlag = values[s.flag];
    if (typeof fromFlag === 'string') return fromFlag;
    const fromEnv = env[s.env];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    return s.default;
  };
  const port = Number(get('port'));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`FOLIO_PORT must be an integer 0..65535, got "${get('port')}"`);
  const host = get('host')!;
  const databaseUrl = get('databaseUrl');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    throw new ConfigError('FOLIO_DATABASE_URL must start with postgres:// or postgresql://');
  const publicUrl = get('publicUrl');
  if (publicUrl) {
    try {
      new URL(publicUrl);
    } catch {
      throw new ConfigError(`FOLIO_PUBLIC_URL is not a URL: "${publicUrl}"`);
    }
  }
  const revisionQuietMs = Number(get('revisionQuietMs'));
  if (!Number.isInteger(revisionQuietMs) || revisionQuietMs < 0)
    throw new ConfigError('FOLIO_REVISION_QUIET_MS must be a non-negative integer');
  const markdownTimeoutMs = Number(get('markdownTimeoutMs'));
  if (!Number.isInteger(markdownTimeoutMs) || markdownTimeoutMs < 1 || markdownTimeoutMs > 600_000)
    throw new ConfigError('FOLIO_MARKDOWN_TIMEOUT_MS must be an integer 1..600000');
  const redisUrl = get('redisUrl');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl))
    throw new ConfigError('FOLIO_REDIS_URL must start with redis:// or rediss://');
  // PGlite is a database inside one process: a second process could not share it, so fan-out would serve nobody.
  if (redisUrl && !databaseUrl)
    throw new ConfigError('FOLIO_REDIS_URL needs FOLIO_DATABASE_URL: several processes must share PostgreSQL');
  const redisPrefix = get('redisPrefix')!;
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix))
    throw new ConfigError('FOLIO_REDIS_PREFIX must be 1-64 letters, digits or _.:-');
  const adminToken = get('adminToken');
  if (adminToken !== undefined && adminToken.length < 16)
    throw new ConfigError('FOLIO_ADMIN_TOKEN must be at least 16 characters');
  const trustProxy = get('trustProxy');
  try {
    if (trustProxy) compileTrust(trustProxy);
  } catch (err) {
    throw new ConfigError(`FOLIO_TRUST_PROXY: ${(err as Error).message}`);
  }
  const outboundAllow = get('outboundAllow');
  for (const item of (outboundAllow ?? '').split(',').map((a) => a.trim().replace(/^\[(.*)\]$/, '$1'))) {
    // The same three forms sync-server/outbound/address-policy.ts reads: a host name, an address, a CIDR range.
    const valid =
      item === '' ||
      (item.includes('/') ? ipaddr.isValidCIDR(item) : ipaddr.isValid(item) || /^[a-z0-9.-]+$/i.test(item));
    if (!valid)
      throw new ConfigError(`FOLIO_OUTBOUND_ALLOW: "${item}" is not a host name, an IP address or a CIDR range`);
  }
  const oidcIssuer = get('oidcIssuer');
  const oidcClientId = get('oidcClientId');
  if (oidcIssuer) {
    try {
      new URL(oidcIssuer);
    } catch {
      throw new ConfigError(`FOLIO_OIDC_ISSUER is not a URL: "${oidcIssuer}"`);
    }
    if (!oidcClientId) throw new ConfigError('FOLIO_OIDC_ISSUER needs FOLIO_OIDC_CLIENT_ID');
  }
  const emailSignIn = get('emailSignIn')!;
  if (emailSignIn !== 'on' && emailSignIn !== 'off')
    throw new ConfigError(`FOLIO_EMAIL_SIGN_IN must be on or off, got "${emailSignIn}"`);
  const importMaxPages = Number(get('importMaxPages'));
  if (!Number.isInteger(importMaxPages) || importMaxPages < 1 || importMaxPages > 1000)
    throw new ConfigError('FOLIO_IMPORT_MAX_PAGES must be an integer 1..1000');
  // A run holds the files it keeps in memory until it writes them: 100 MiB is also the largest upload.
  const importMaxFileBytes = Number(get('importMaxFileBytes'));
  if (!Number.isInteger(importMaxFileBytes) || importMaxFileBytes < 1024 || importMaxFileBytes > 100 * 1024 * 1024)
    throw new ConfigError(
      `FOLIO_IMPORT_MAX_FILE_BYTES must be an integer 1024..104857600, got "${get('importMaxFileBytes')}"`,
    );
  // Renewed every third of it: below a second, a busy event loop or a slow database would lose leases of live jobs.
  const jobLeaseMs = Number(get('jobLeaseMs'));
  if (!Number.isInteger(jobLeaseMs) || jobLeaseMs < 1000 || jobLeaseMs > 3_600_000)
    throw new ConfigError(`FOLIO_JOB_LEASE_MS must be an integer 1000..3600000 (ms), got "${get('jobLeaseMs')}"`);
  // isomorphic-git holds a fetched pack in memory while it indexes it: this bounds the memory of a sync too.
  const gitMaxBytes = Number(get('gitMaxBytes'));
  if (!Number.isInteger(gitMaxBytes) || gitMaxBytes < 1024 * 1024 || gitMaxBytes > 2 * 1024 * 1024 * 1024)
    throw new ConfigError(`FOLIO_GIT_MAX_BYTES must be an integer 1048576..2147483648, got "${get('gitMaxBytes')}"`);
  const secretKey = get('secretKey');
  // The message never repeats the value: it is a secret, and errors are printed.
  if (secretKey !== undefined && !isSecretKey(secretKey))
    throw new ConfigError('FOLIO_SECRET_KEY must be 32 bytes in base64 (make one with: openssl rand -base64 32)');
  const translate = translateSettings(get);
  const rateLimitWindowS = Number(get('rateLimitWindowS'));
  if (!Number.isInteger(rateLimitWindowS) || rateLimitWindowS < 1 || rateLimitWindowS > 86_400)
    throw new ConfigError('FOLIO_RATE_LIMIT_WINDOW_S must be an integer 1..86400');
  const s3 = s3Settings(get);
  const rateLimit = (key: keyof Config): number => {
    const value = get(key)!;
    if (value === 'off') return 0;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 1e9)
      throw new ConfigError(`${SETTINGS[key].env} must be a non-negative integer or off, got "${value}"`);
    return n;
  };
  return {
    help: values.help === true,
    port,
    host,
    dataDir: resolve(get('dataDir')!),
    databaseUrl,
    publicUrl: (publicUrl ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/+$/, ''),
    adminToken,
    smtpUrl: get('smtpUrl'),
    smtpFrom: get('smtpFrom')!,
    logLevel: get('logLevel')!,
    revisionQuietMs,
    markdownTimeoutMs,
    metricsToken: get('metricsToken'),
    redisUrl,
    redisPrefix,
    trustProxy,
    outboundAllow,
    rateLimitWindowS,
    importMaxPages,
    importMaxFileBytes,
    jobLeaseMs,
    gitMaxBytes,
    secretKey,
    ...translate,
    rateLimitAuthFailures: rateLimit('rateLimitAuthFailures'),
    rateLimitWrites: rateLimit('rateLimitWrites'),
    rateLimitReads: rateLimit('rateLimitReads'),
    rateLimitAnonymous: rateLimit('rateLimitAnonymous'),
    rateLimitSignIn: rateLimit('rateLimitSignIn'),
    rateLimitPendingSignIns: rateLimit('rateLimitPendingSignIns'),
    oidcIssuer,
    oidcClientId,
    oidcClientSecret: get('oidcClientSecret'),
    oidcLabel: get('oidcLabel')!,
    emailSignIn: emailSignIn === 'on',
    dnsServers: (get('dnsServers') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...s3,
  };
}

/** The blob store's S3 settings, checked so a typo fails at start rather than at the first upload. */
function s3Settings(
  get: (key: keyof Config) => string | undefined,
): Pick<Config, 's3Bucket' | 's3Endpoint' | 's3Region' | 's3Prefix' | 's3ForcePathStyle'> {
  const bucket = get('s3Bucket');
  const endpoint = get('s3Endpoint');
  const pathStyle = get('s3ForcePathStyle')!;
  if (!['on', 'off', 'true', 'false'].includes(pathStyle))
    throw new ConfigError(`FOLIO_S3_FORCE_PATH_STYLE must be on or off, got "${pathStyle}"`);
  if (bucket !== undefined && !/^[A-Za-z0-9._-]{3,63}$/.test(bucket))
    throw new ConfigError(`FOLIO_S3_BUCKET is not a bucket name: "${bucket}"`);
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint))
    throw new ConfigError(`FOLIO_S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  for (const key of ['s3Endpoint', 's3Region', 's3Prefix'] as const)
    if (!bucket && get(key) !== undefined) throw new ConfigError(`${SETTINGS[key].env} needs FOLIO_S3_BUCKET`);
  const prefix = (get('s3Prefix') ?? '').replace(/^\/+/, '');
  return {
    s3Bucket: bucket,
    s3Endpoint: endpoint?.replace(/\/+$/, ''),
    s3Region: get('s3Region'),
    s3Prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    s3ForcePathStyle: pathStyle === 'on' || pathStyle === 'true',
  };
}

/** Whether `value` is a key FOLIO_SECRET_KEY takes: 32 bytes in base64 (standard or URL-safe, padding optional). */
export function isSecretKey(value: string): boolean {
  const text = value.trim();
  return /^[A-Za-z0-9+/_-]{43}=?$/.test(text) && Buffer.from(text, 'base64').length === 32;
}

/** The trust function of a FOLIO_TRUST_PROXY list (throws on a malformed address). */
export function compileTrust(list: string): (address: string, hop: number) => boolean {
  return proxyAddr.compile(
    list
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean),
  );
}

/** The translation engine's settings: which engine, checked so a typo fails at start, not at the first run. */
function translateSettings(
  get: (key: keyof Config) => string | undefined,
): Pick<Config, 'translateEngine' | 'translateUrl' | 'translateKey' | 'translateModel'> {
  const url = get('translateUrl');
  const model = get('translateModel');
  const named = get('translateEngine');
  if (named !== undefined && named !== 'libretranslate' && named !== 'openai')
    throw new ConfigError(`FOLIO_TRANSLATE_ENGINE must be libretranslate or openai, got "${named}"`);
  const engine = named ?? (model ? 'openai' : url ? 'libretranslate' : undefined);
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url))
    throw new ConfigError(`FOLIO_TRANSLATE_URL must be an http(s) URL, got "${url}"`);
  if (engine && !url) throw new ConfigError(`FOLIO_TRANSLATE_URL is required by the ${engine} translation engine`);
  if (engine === 'openai' && !model)
    throw new ConfigError('FOLIO_TRANSLATE_MODEL is required by the openai translation engine (e.g. gpt-4o-mini)');
  return {
    translateEngine: engine,
    translateUrl: url?.replace(/\/+$/, ''),
    translateKey: get('translateKey'),
    translateModel: model,
  };
}
