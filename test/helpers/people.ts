import { createHash, randomBytes } from 'node:crypto';
import type { MemberRole } from '@gitbook/api';
import type { Role } from '../../sync-server/policy/roles';
import type { CompiledServer, RunningServer } from './compiled-server';
import { HttpBrowser } from './http-browser';
import type { TestOidcProvider } from './oidc-provider';
import { decodeQuotedPrintable, type TestSmtp } from './smtp';
import { waitFor } from './wait';

/**
 * People of a compiled test server, made the way people really come to one: they sign in (through
 * an OpenID provider, or an emailed link), which makes their account, then connect an app through
 * the desktop device flow (docs/sign-in.md "Sessions and devices") for a token, and join organizations
 * through invite links. No database access: the server is a process of its own.
 */

/** A person with a token (a device token from the device flow). */
export interface Person {
  id: string;
  name: string;
  email: string;
  token: string;
  /** The token's id (what GET /v1/user/tokens lists it under). */
  tokenId: string;
}

/** The headers a browser sends with a form post from one of the server's own pages. */
export function ownPageHeaders(server: Pick<RunningServer, 'url'>): Record<string, string> {
  return { origin: server.url, 'sec-fetch-site': 'same-origin' };
}

/** Signs `browser` in at `server` through its OpenID provider as `login` (an account of `provider`). */
export async function signInWithOidc(
  server: Pick<RunningServer, 'url'>,
  browser: HttpBrowser,
  login: string,
): Promise<void> {
  const atServer = (url: string) => url.startsWith(`${server.url}/`);
  const start = await browser.request(`${server.url}/auth/oidc/start?next=/app/`);
  if (start.status !== 302) throw new Error(`/auth/oidc/start answered ${start.status}: ${await start.text()}`);
  let hop = await browser.follow(start.headers.get('location')!, {}, atServer);
  // The provider's pages: its login form (any password), then its consent form.
  for (let page = 0; page < 4 && !atServer(hop.url); page++) {
    if (hop.response.status !== 200)
      throw new Error(`the OpenID provider answered ${hop.response.status} at ${hop.url}`);
    const html = await hop.response.text();
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    const posted = await browser.submitForm(hop.url, html, prompt === 'login' ? { login, password: 'any' } : {});
    const next = new URL(posted.headers.get('location')!, hop.url).href;
    hop = atServer(next) ? { url: next, response: posted } : await browser.follow(next, {}, atServer);
  }
  const done = await browser.request(hop.url);
  if (done.status !== 303 || !browser.cookie(server.url, 'folio_session'))
    throw new Error(`the OpenID callback answered ${done.status}: ${await done.text()}`);
}

/** The newest sign-in link `smtp` received for `email` after its `after`th message. */
export async function mailedSignInLink(smtp: TestSmtp, email: string, after = 0): Promise<string> {
  const mail = await waitFor(
    () =>
      smtp.messages
        .slice(after)
        .filter((m) => m.to.includes(email))
        .pop(),
    15_000,
    `a sign-in mail to ${email}`,
  );
  return /https?:\/\/\S+\/auth\/email\/verify\?token=[A-Za-z0-9_-]{43}/.exec(decodeQuotedPrintable(mail!.raw))![0];
}

/**
 * Signs `browser` in at `server` with an email link (POST /auth/email/start, the mail `smtp`
 * receives, the confirmation page's button); `userAgent` is the browser's (a session lists it).
 */
export async function signInWithEmailLink(
  server: Pick<RunningServer, 'url'>,
  browser: HttpBrowser,
  smtp: TestSmtp,
  email: string,
  userAgent = 'Folio test bench',
): Promise<void> {
  const before = smtp.messages.length;
  const asked = await browser.request(`${server.url}/auth/email/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (asked.status !== 202) throw new Error(`/auth/email/start answered ${asked.status}: ${await asked.text()}`);
  const link = await mailedSignInLink(smtp, email, before);
  const page = await browser.request(link, { headers: { 'user-agent': userAgent } });
  if (page.status !== 200) throw new Error(`the email link's page answered ${page.status}`);
  const confirmed = await browser.submitForm(
    link,
    await page.text(),
    {},
    {
      ...ownPageHeaders(server),
      'user-agent': userAgent,
    },
  );
  if (confirmed.status !== 303 || !browser.cookie(server.url, 'folio_session'))
    throw new Error(`the email link's confirmation answered ${confirmed.status}: ${await confirmed.text()}`);
}

/**
 * Connects an app as the person signed in in `browser`, through the desktop device flow: the
 * consent page, Approve, the one-use code (read from the redirect to the app's loopback address,
 * which is never opened), and its exchange for a device token labelled `deviceName`.
 */
export async function deviceToken(
  server: Pick<RunningServer, 'url'>,
  browser: HttpBrowser,
  deviceName: string,
): Promise<{ token: string; tokenId: string; userId: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const redirectUri = 'http://127.0.0.1:9/callback';
  const query = new URLSearchParams({
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    device_name: deviceName,
  });
  const consentUrl = `${server.url}/auth/device/authorize?${query}`;
  const consent = await browser.request(consentUrl);
  if (consent.status !== 200) throw new Error(`the device consent page answered ${consent.status}`);
  const approved = await browser.submitForm(
    consentUrl,
    await consent.text(),
    { decision: 'approve' },
    ownPageHeaders(server),
  );
  const location = approved.headers.get('location') ?? '';
  const code = location.startsWith(`${redirectUri}?`) ? new URL(location).searchParams.get('code') : null;
  if (approved.status !== 303 || !code) throw new Error(`the device approval answered ${approved.status} ${location}`);
  const exchanged = await fetch(`${server.url}/auth/device/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, code_verifier: verifier, redirect_uri: redirectUri }),
  });
  if (exchanged.status !== 200) throw new Error(`the device token exchange answered ${exchanged.status}`);
  return (await exchanged.json()) as { token: string; tokenId: string; userId: string };
}

/** Signs `browser` out at `server` (its session is deleted, so it lists nowhere). */
export async function signOut(server: Pick<RunningServer, 'url'>, browser: HttpBrowser): Promise<void> {
  const res = await browser.request(`${server.url}/auth/sign-out`, { method: 'POST', headers: ownPageHeaders(server) });
  if (res.status !== 204) throw new Error(`/auth/sign-out answered ${res.status}`);
}

/**
 * Ends a sign-in made in `browser`: a device token for the person, then the browser signed out,
 * so the person holds that one token and no session (their token and session lists stay as a
 * test expects them).
 */
async function keepToken(server: RunningServer, browser: HttpBrowser, name: string, email: string): Promise<Person> {
  const device = await deviceToken(server, browser, 'Folio test bench');
  await signOut(server, browser);
  return { id: device.userId, name, email, token: device.token, tokenId: device.tokenId };
}

let counter = 0;

/**
 * A new person named `name`, signed up through the server's OpenID provider (the server must be
 * started with `people: true`): the provider vouches for their name and address, the first
 * sign-in makes the account. Member of nothing yet.
 */
export async function newPerson(server: CompiledServer, name: string): Promise<Person> {
  const provider: TestOidcProvider | undefined = server.people;
  if (!provider) throw new Error('newPerson needs a compiled server started with { people: true }');
  const login = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}.${Date.now().toString(36)}${++counter}`;
  const email = `${login}@example.com`;
  provider.accounts.set(login, { email, email_verified: true, name });
  const browser = new HttpBrowser();
  await signInWithOidc(server, browser, login);
  return keepToken(server, browser, name, email);
}

/**
 * Another token of a person made by newPerson, as when they connect a second device: they sign in
 * again through the provider, approve a device named `deviceName`, and sign the browser out.
 */
export async function connectDevice(
  server: CompiledServer,
  person: Person,
  deviceName: string,
): Promise<{ token: string; tokenId: string }> {
  if (!server.people) throw new Error('connectDevice needs a compiled server started with { people: true }');
  const browser = new HttpBrowser();
  // newPerson's login name is the address's local part.
  await signInWithOidc(server, browser, person.email.split('@')[0]!);
  const device = await deviceToken(server, browser, deviceName);
  await signOut(server, browser);
  return { token: device.token, tokenId: device.tokenId };
}

/**
 * A person who signs in with an emailed link to `email` (the server must mail through `smtp`, and
 * the address must be allowed a link: an account, a pending invite or a verified email domain).
 * Their name is what email sign-in gives a new account: the address's local part.
 */
export async function personByEmail(server: RunningServer, smtp: TestSmtp, email: string): Promise<Person> {
  const browser = new HttpBrowser();
  await signInWithEmailLink(server, browser, smtp, email);
  return keepToken(server, browser, email.split('@')[0]!, email);
}

/**
 * Makes `person` a member of the organization with `role` (null = guest) the way a person would:
 * an admin makes an invite link with that role and the person joins through it.
 */
export async function addMember(
  server: RunningServer,
  organizationId: string,
  person: Pick<Person, 'token'>,
  role: Role | null,
): Promise<void> {
  // Our role strings are the client's MemberRole values on the wire.
  const invite = await server.client.orgs.createOrganizationInvite(organizationId, { role: role as MemberRole | null });
  await server.clientFor(person.token).orgs.joinOrganizationWithInvite(organizationId, invite.data.id);
}

/** A new person (newPerson) who is a member of the organization with `role`. */
export async function newMember(
  server: CompiledServer,
  organizationId: string,
  role: Role | null,
  name: string,
): Promise<Person> {
  const person = await newPerson(server, name);
  await addMember(server, organizationId, person, role);
  return person;
}
