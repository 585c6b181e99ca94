import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../http/errors';

/**
 * The chrome of the server-rendered sign-in pages (an email link's
 * confirmation, sign-in errors, a device's consent): one small card, light or
 * dark as the system prefers, readable on a phone. No script at all, and a
 * CSP that allows only this stylesheet (by hash) and forms posting back here.
 */

const STYLE = `
:root { color-scheme: light dark; --bg: #f6f7f9; --card: #fff; --text: #1b1f24; --muted: #57606a;
  --border: #d8dee4; --accent: #0b5fff; --accent-text: #fff; --danger: #b42318; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --card: #161b22; --text: #e6edf3; --muted: #9da7b3; --border: #30363d;
    --accent: #4c8dff; --accent-text: #0d1117; --danger: #ff7b72; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
  padding: 24px 16px; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: 100%; max-width: 420px; background: var(--card); border: 1px solid var(--border);
  border-radius: 12px; padding: 32px 28px; box-shadow: 0 1px 3px rgb(0 0 0 / 8%); }
.brand { margin: 0 0 24px; font-weight: 600; font-size: 15px; color: var(--muted); letter-spacing: .02em; }
h1 { margin: 0 0 12px; font-size: 22px; line-height: 1.3; }
p { margin: 0 0 16px; color: var(--muted); overflow-wrap: anywhere; }
p strong { color: var(--text); }
.error h1 { color: var(--danger); }
form { margin: 24px 0 0; }
button, .button { display: block; width: 100%; padding: 12px 16px; border: 0; border-radius: 8px;
  background: var(--accent); color: var(--accent-text); font: inherit; font-weight: 600;
  text-align: center; text-decoration: none; cursor: pointer; }
button:focus-visible, .button:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
a { color: var(--accent); }
.links { margin: 24px 0 0; font-size: 14px; }
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** The pages' Content-Security-Policy: no script, this stylesheet only, forms post to this server only. */
export const SIGN_IN_PAGE_CSP = `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A whole page around `body` (trusted HTML: escape what goes into it). */
export function renderPage(page: { title: string; body: string; error?: boolean }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · Folio</title>
<style>${STYLE}</style>
</head>
<body>
<main${page.error ? ' class="error"' : ''}>
<p class="brand">Folio</p>
${page.body}
</main>
</body>
</html>
`;
}

/** Sends a page: never cached (it may name a person or carry a one-use token), never framed. */
export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', SIGN_IN_PAGE_CSP)
    .send(html);
}

/** Whether the caller asked for JSON rather than a page (an API client, a test). */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
}

/**
 * A refused sign-in: a page saying what went wrong and how to start again
 * for a browser, GitBook's error shape for a JSON client.
 */
export function sendSignInError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  retry: { href: string; label: string } = { href: '/app/', label: 'Back to sign-in' },
): FastifyReply {
  if (wantsJson(request))
    return reply.code(status).header('cache-control', 'no-store').send(errorBody(status, message));
  const body = `<h1>Sign-in failed</h1>
<p>${escapeHtml(message)}</p>
<p class="links"><a class="button" href="${escapeHtml(retry.href)}">${escapeHtml(retry.label)}</a></p>`;
  return sendPage(reply, status, renderPage({ title: 'Sign-in failed', body, error: true }));
}

/**
 * A sign-in refused because its address has too many in progress
 * (store/sign-in-requests.ts PendingSignInLimitError): 429 with `Retry-After`,
 * as a page or in the error shape, like any refused sign-in.
 */
export function sendTooManySignIns(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: { retryAfterS: number; message: string },
): FastifyReply {
  reply.header('retry-after', String(refusal.retryAfterS));
  return sendSignInError(request, reply, 429, refusal.message);
}
