import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { Principal } from '../../identity/principal';
import { authorizeQuery, formActionSource, type DeviceAuthorization } from './device-request';
import { escapeHtml, renderPage, SIGN_IN_PAGE_CSP } from './page';

/**
 * The pages of the desktop app's authorization, in the sign-in pages' chrome
 * (page.ts): the consent page, and the refusals a browser can be shown.
 */

/** What the consent page adds to the chrome: two buttons side by side, the second one quiet. */
const DEVICE_STYLE = `
.actions { display: flex; gap: 12px; flex-wrap: wrap-reverse; }
.actions button { flex: 1 1 140px; }
button.secondary { background: transparent; color: var(--text); border: 1px solid var(--border); }
button.link { display: inline; width: auto; padding: 0; background: none; color: var(--accent);
  font-weight: inherit; text-decoration: underline; }
.inline { display: inline; margin: 0; }
.fine { font-size: 14px; }
.links { color: var(--muted); }
`;
const DEVICE_STYLE_SOURCE = `'sha256-${createHash('sha256').update(DEVICE_STYLE).digest('base64')}'`;

/** `csp` with `sources` added to one of its directives. */
function withSources(csp: string, directive: string, sources: string[]): string {
  return csp.replace(new RegExp(`(^|;\\s*)(${directive}) ([^;]*)`), `$1$2 $3 ${sources.join(' ')}`);
}

/**
 * The pages' CSP, plus this page's stylesheet, plus the app's address as a
 * form target: browsers apply `form-action` to the redirect after a post,
 * and the approval redirects to the app.
 */
function devicePageCsp(redirectUri: string | undefined): string {
  const csp = withSources(SIGN_IN_PAGE_CSP, 'style-src', [DEVICE_STYLE_SOURCE]);
  return redirectUri ? withSources(csp, 'form-action', [formActionSource(redirectUri)]) : csp;
}

function send(reply: FastifyReply, status: number, html: string, redirectUri?: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', devicePageCsp(redirectUri))
    .send(html);
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** The request's fields, carried by the consent form to /auth/device/approve. */
function requestFields(auth: DeviceAuthorization): string {
  return [
    hidden('redirect_uri', auth.redirectUri),
    hidden('state', auth.state),
    hidden('code_challenge', auth.codeChallenge),
    hidden('code_challenge_method', 'S256'),
    ...(auth.deviceName ? [hidden('device_name', auth.deviceName)] : []),
  ].join('\n');
}

/** A form (a div's child: a form may not sit in a p) that signs this browser out, then signs in again and comes back to this request. */
function switchAccountForm(auth: DeviceAuthorization, label: string): string {
  const next = `/app/sign-in?next=${encodeURIComponent(`/auth/device/authorize?${authorizeQuery(auth)}`)}`;
  return `<form class="inline" method="post" action="/auth/sign-out">${hidden('next', next)}<button class="link" type="submit">${escapeHtml(label)}</button></form>`;
}

/** "Allow Folio desktop on <device> to use your account <email>?" with Approve and Cancel. */
export function sendConsentPage(reply: FastifyReply, auth: DeviceAuthorization, person: Principal): FastifyReply {
  const app = auth.deviceName ? `Folio desktop on ${auth.deviceName}` : 'Folio desktop';
  const account = person.email ?? person.displayName;
  const body = `<style>${DEVICE_STYLE}</style>
<h1>Connect the desktop app?</h1>
<p>Allow <strong>${escapeHtml(app)}</strong> to use your account <strong>${escapeHtml(account)}</strong>?</p>
<p class="fine">It will read and edit everything you can until you sign it out, here in the web app's settings or in the app.</p>
<form method="post" action="/auth/device/approve">
${requestFields(auth)}
<div class="actions">
<button type="submit" class="secondary" name="decision" value="cancel">Cancel</button>
<button type="submit" name="decision" value="approve">Approve</button>
</div>
</form>
<div class="links fine">Not ${escapeHtml(account)}? ${switchAccountForm(auth, 'Use another account')}</div>`;
  return send(reply, 200, renderPage({ title: 'Connect the desktop app', body }), auth.redirectUri);
}

/** A person who must use SSO, signed in some other way: they may sign in again with SSO. */
export function sendSsoRequiredPage(reply: FastifyReply, auth: DeviceAuthorization): FastifyReply {
  const body = `<style>${DEVICE_STYLE}</style>
<h1>Single sign-on required</h1>
<p>Your organization requires you to sign in with its single sign-on (SSO) before you connect the desktop app.</p>
<div class="links">${switchAccountForm(auth, 'Sign in with SSO')}</div>`;
  return send(reply, 403, renderPage({ title: 'Single sign-on required', body, error: true }));
}

/** A request the app got wrong, or one from another site: nothing is shown or stored, nothing is redirected. */
export function sendDeviceError(reply: FastifyReply, status: number, message: string): FastifyReply {
  const body = `<h1>The desktop app could not be connected</h1>
<p>${escapeHtml(message)}</p>
<p>Start again from the desktop app.</p>`;
  return send(reply, status, renderPage({ title: 'Could not connect the app', body, error: true }));
}
