import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The Content-Security-Policy of HTML that sets none of its own (a page a
 * module forgot): nothing loads, nothing runs, nothing frames it.
 */
export const FALLBACK_HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Appends `frame-ancestors 'none'` to a policy that does not say who may
 * frame the page (a policy that does keeps its own choice).
 */
export function withFrameAncestors(policy: string): string {
  if (/(^|;)\s*frame-ancestors\s/i.test(policy)) return policy;
  const trimmed = policy.trim().replace(/;$/, '');
  return `${trimmed}; frame-ancestors 'none'`;
}

/** `X-Frame-Options` saying what the policy's frame-ancestors says, where it can ('none' or 'self' only). */
function legacyFrameOptions(policy: string): string | undefined {
  const sources = /(?:^|;)\s*frame-ancestors\s+([^;]*)/i.exec(policy)?.[1]?.trim();
  if (sources === "'none'") return 'DENY';
  if (sources === "'self'") return 'SAMEORIGIN';
  return undefined;
}

const isHtml = (reply: FastifyReply) => /^\s*text\/html\b/i.test(String(reply.getHeader('content-type') ?? ''));

/**
 * Security headers on every response, set once here rather than per module
 * (a module sets a header itself only to say something more specific, such
 * as its own Content-Security-Policy, and that is kept):
 * - every response: `X-Content-Type-Options: nosniff`, so a browser never
 *   runs a JSON answer or a file as a script or a page it guessed;
 * - every HTML response (web app, published sites, /reference, error pages):
 *   `Referrer-Policy: no-referrer` (share keys and visitor tokens sit in
 *   published-site URLs and must not leak to linked sites), framing refused
 *   with `frame-ancestors 'none'` in the CSP plus `X-Frame-Options: DENY` for
 *   old browsers (clickjacking the app into approving or deleting), and a
 *   strict CSP where the page set none.
 * Runs in onSend, after the handler chose the content type.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  // A callback hook: no promise per response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
    if (isHtml(reply)) htmlHeaders(reply);
    done(null, payload);
  });
}

/** What every HTML response gets (see installSecurityHeaders). */
function htmlHeaders(reply: FastifyReply): void {
  if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
  const given = reply.getHeader('content-security-policy');
  const csp = given ? withFrameAncestors(String(given)) : FALLBACK_HTML_CSP;
  reply.header('content-security-policy', csp);
  if (!reply.hasHeader('x-frame-options')) {
    const xfo = legacyFrameOptions(csp);
    if (xfo) reply.header('x-frame-options', xfo);
  }
}
