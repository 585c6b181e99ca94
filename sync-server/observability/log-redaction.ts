import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that are credentials: `jwt_token` (published-site visitor
 * tokens), `share` (share-link keys), `signature` (signed upload and download
 * links), `token` and anything else named like a token, key, secret or
 * password. Whoever reads the logs must not be able to replay them.
 */
const SECRET_PARAM = /token|signature|^sig$|^share$|secret|password|passwd|^key$|_key$|apikey/i;

/** What a secret's value becomes in logs. */
export const REDACTED = '[REDACTED]';

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * `url` (a request target: path and query) with the value of every secret
 * query parameter replaced by {@link REDACTED}; everything else is kept as
 * sent, so a log line still shows which link was used.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1);
  const redacted = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAM.test(decodedName(name)) && eq >= 0 ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${redacted}`;
}

/**
 * pino serializer of `req` (Fastify logs each request as `{req}`): Fastify's
 * own fields, with the URL redacted.
 */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Serializers for the process logger: every request's log line goes through them. */
export const logSerializers = {
  req: serializeRequest,
  url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
};
