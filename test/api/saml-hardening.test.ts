import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, type RawResponse } from '../helpers/api';
import { approveDomain } from '../helpers/domains';
import { CookieJar, newKeyPair, TestIdp } from '../helpers/saml-idp';
import { SAML_FORM_LIMIT, SAML_MAX_XML_TAGS } from '../../sync-server/identity/saml-preparse';

/**
 * The SAML assertion consumer service (ACS) under attack, over HTTP:
 * - a wide response (tens of thousands of empty elements) used to stall the
 *   whole server in node-saml's signature check (quadratic in xpath); it is
 *   now refused before any XML parser reads it, the check runs in a worker
 *   thread, and /healthz keeps answering meanwhile (its latency is printed);
 * - login CSRF: a response to a sign-in started in one browser (the
 *   attacker's) posted from another is refused; the start binds the request
 *   to its browser with a cookie.
 */

let t: TestServer;
let idp: TestIdp;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };

beforeAll(async () => {
  t = await startTestServer();
  idp = new TestIdp(await newKeyPair());
  const orgId = (await t.client.orgs.createOrganization({ title: 'Hardened Org', emailDomains: ['hard.example'] })).data
    .id;
  // The organization owns hard.example (its IdP may vouch only for addresses there).
  await approveDomain(t, orgId, 'hard.example');
  provider = (
    await t.client.orgs.createOrganizationSamlProvider(orgId, {
      label: 'Hard IdP',
      entityID: idp.entityID,
      ssoURL: 'https://idp.example.test/sso',
      certificate: idp.keys.cert,
    })
  ).data;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

let people = 0;
const newEmail = () => `hard${++people}.${Date.now().toString(36)}@hard.example`;

/** Starts a sign-in in `browser` (which keeps the start's cookie) and returns the AuthnRequest the IdP receives. */
async function start(browser: CookieJar) {
  const res = await browser.fetch(`${provider.service.startURL}?next=/app/`);
  expect(res.status).toBe(302);
  return idp.readRequest(res.headers.get('location')!);
}

/** Posts a SAMLResponse form to the ACS from `browser` (JSON errors asked for). */
function post(browser: CookieJar, samlResponse: string): Promise<Response> {
  return browser.fetch(provider.service.acsURL, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ SAMLResponse: samlResponse }),
  });
}

async function asRaw(res: Response): Promise<RawResponse> {
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: res.headers };
}

const hasSession = (res: Response) => res.headers.getSetCookie().some((c) => c.startsWith('folio_session='));
const userExists = async (email: string) =>
  (await t.server.ctx.db.query('SELECT 1 FROM users WHERE email = $1', [email])).length > 0;

/** An unsigned response to `inResponseTo` with `count` empty elements after the response's Issuer. */
function wideResponse(inResponseTo: string, count: number): string {
  const xml = Buffer.from(
    idp.response(provider.service.entityID, provider.service.acsURL, { sign: 'none', inResponseTo }),
    'base64',
  ).toString('utf8');
  const wide = xml.replace(/(<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/, `$1${'<a/>'.repeat(count)}`);
  expect(wide.length).toBe(xml.length + 4 * count);
  return Buffer.from(wide).toString('base64');
}

const tagsIn = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8').split('<').length - 1;
const formBytes = (samlResponse: string) =>
  Buffer.byteLength(new URLSearchParams({ SAMLResponse: samlResponse }).toString());

/**
 * Runs `attack` while asking /healthz every 10 ms from a thread of its own (an event loop the
 * server's stall cannot hold up, so a request is sent on time and waits for the server): the
 * attack's result and time, each /healthz answer's latency (ms), and the requests that failed.
 */
async function healthzDuring<T>(attack: () => Promise<T>) {
  const sampler = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let stop = false;
    parentPort.once('message', () => (stop = true));
    (async () => {
      const latencies = [];
      let failed = 0;
      do {
        const t0 = performance.now();
        try {
          const res = await fetch(workerData.url);
          await res.text();
          if (res.status !== 200) failed++;
        } catch {
          failed++;
        }
        latencies.push(performance.now() - t0);
        if (latencies.length === 1) parentPort.postMessage('sampling');
        await new Promise((resolve) => setTimeout(resolve, 10));
      } while (!stop);
      parentPort.postMessage({ latencies, failed });
    })();`,
    { eval: true, workerData: { url: `${t.url}/healthz` } },
  );
  try {
    const messages = new Promise<{ latencies: number[]; failed: number }>((resolve, reject) => {
      sampler.on('message', (message: 'sampling' | { latencies: number[]; failed: number }) => {
        if (message !== 'sampling') resolve(message);
      });
      sampler.once('error', reject);
    });
    await new Promise((resolve) => sampler.once('message', resolve)); // sampling has begun
    const t0 = performance.now();
    const result = await attack();
    const ms = performance.now() - t0;
    sampler.postMessage('stop');
    return { result, ms, healthz: await messages };
  } finally {
    await sampler.terminate();
  }
}

function report(label: string, attackMs: number, { latencies, failed }: { latencies: number[]; failed: number }) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  console.log(
    `${label}: attack answered in ${attackMs.toFixed(0)} ms; /healthz during it: ${sorted.length} requests ` +
      `(${failed} failed), p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`,
  );
}

describe('SAML ACS: bounded XML work', () => {
  it('refuses a wide response (60,000 empty elements, unsigned) at once; /healthz keeps answering', async () => {
    const browser = new CookieJar();
    const request = await start(browser);
    const wide = wideResponse(request.id, 60_000);
    expect(formBytes(wide)).toBeGreaterThan(SAML_FORM_LIMIT);
    // 40 posts, 4 at a time: long enough for /healthz's latency to say something.
    const { result, ms, healthz } = await healthzDuring(async () => {
      const answers: RawResponse[] = [];
      for (let round = 0; round < 10; round++)
        answers.push(...(await Promise.all(Array.from({ length: 4 }, () => post(browser, wide).then(asRaw)))));
      return answers;
    });
    report(`40 wide responses (60,000 elements, ${Math.round(formBytes(wide) / 1024)} kB each)`, ms, healthz);
    for (const answer of result) expectError(answer, 413, /larger than this server accepts/);
    expect(healthz.failed).toBe(0);
  }, 120_000);

  it('refuses a response just under the size cap with too many elements in the pre-parse', async () => {
    const browser = new CookieJar();
    const request = await start(browser);
    let count = 30_000;
    let wide = wideResponse(request.id, count);
    while (formBytes(wide) > SAML_FORM_LIMIT - 512) wide = wideResponse(request.id, (count -= 500));
    expect(formBytes(wide)).toBeLessThanOrEqual(SAML_FORM_LIMIT);
    expect(tagsIn(wide)).toBeGreaterThan(SAML_MAX_XML_TAGS);
    const t0 = performance.now();
    const res = await post(browser, wide);
    console.log(
      `a response just under the cap (${Math.round(formBytes(wide) / 1024)} kB, ${tagsIn(wide)} tags) ` +
        `refused in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    expectError(await asRaw(res), 400, /too many XML elements/);
    expect(hasSession(res)).toBe(false);
  });

  it('refuses a response that declares a document type', async () => {
    const browser = new CookieJar();
    const request = await start(browser);
    const xml = Buffer.from(
      idp.response(provider.service.entityID, provider.service.acsURL, { inResponseTo: request.id }),
      'base64',
    ).toString('utf8');
    const withDtd = xml.replace(/^(<\?xml[^>]*>)?/, '$1<!DOCTYPE r [<!ENTITY e "x">]>');
    expectError(await asRaw(await post(browser, Buffer.from(withDtd).toString('base64'))), 400, /document type/);
  });

  it('checks responses at the element cap off the event loop: /healthz keeps answering, then a valid one signs in', async () => {
    const browser = new CookieJar();
    const attackers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const request = await start(browser);
        const base = tagsIn(wideResponse(request.id, 0));
        const wide = wideResponse(request.id, SAML_MAX_XML_TAGS - base);
        expect(tagsIn(wide)).toBe(SAML_MAX_XML_TAGS);
        return wide;
      }),
    );
    const {
      result: answers,
      ms,
      healthz,
    } = await healthzDuring(() => Promise.all(attackers.map((wide) => post(browser, wide).then(asRaw))));
    report(`6 concurrent responses at the cap (${SAML_MAX_XML_TAGS} tags, unsigned)`, ms, healthz);
    expect(healthz.failed).toBe(0);
    console.log('their answers:', answers.map((a) => a.status).join(', '));
    // Refused as unsigned, or (on a machine too busy to check them in time) as a server too busy: never accepted.
    for (const answer of answers) {
      expect([403, 503]).toContain(answer.status);
      expectError(answer, answer.status, answer.status === 403 ? /not signed/ : /try again/i);
    }

    const email = newEmail();
    const request = await start(browser);
    const res = await post(
      browser,
      idp.response(provider.service.entityID, provider.service.acsURL, { email, inResponseTo: request.id }),
    );
    expect(res.status).toBe(303);
    expect(hasSession(res)).toBe(true);
    expect(await userExists(email)).toBe(true);
  }, 120_000);
});

describe('SAML ACS: login CSRF', () => {
  it('binds a sign-in to the browser that started it (an HttpOnly cookie on the provider path)', async () => {
    const browser = new CookieJar();
    const res = await browser.fetch(provider.service.startURL);
    expect(res.status).toBe(302);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_saml_request='))!;
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toContain(`Path=/auth/saml/${provider.id}`);
    expect(cookie).toMatch(/Max-Age=600/);
    // This server's public URL is http: no Secure, so no SameSite=None (a browser drops that without Secure).
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).not.toMatch(/SameSite=None/i);
    // The cookie holds a digest, not the request id the IdP sees.
    const request = await idp.readRequest(res.headers.get('location')!);
    expect(browser.get('folio_saml_request')).not.toContain(request.id);
  });

  it("refuses a response to the attacker's sign-in posted from another browser; with the cookie it signs in", async () => {
    const attacker = new CookieJar();
    const victim = new CookieJar();
    const attackerEmail = newEmail();
    const request = await start(attacker);
    const forged = () =>
      idp.response(provider.service.entityID, provider.service.acsURL, {
        email: attackerEmail,
        inResponseTo: request.id,
      });

    // The victim's browser posts it (an auto-submitting form on the attacker's site): no cookie at all.
    const noCookie = await post(victim, forged());
    expectError(await asRaw(noCookie), 403, /not started in this browser/);
    expect(hasSession(noCookie)).toBe(false);
    // Nor with a pending sign-in of the victim's own.
    await start(victim);
    const otherCookie = await post(victim, forged());
    expectError(await asRaw(otherCookie), 403, /not started in this browser/);
    expect(hasSession(otherCookie)).toBe(false);
    expect(await userExists(attackerEmail)).toBe(false);

    // The browser that started it finishes it (the refusals above did not use the request up).
    const own = await post(attacker, forged());
    expect(own.status).toBe(303);
    expect(hasSession(own)).toBe(true);
    expect(await userExists(attackerEmail)).toBe(true);
  });

  it('two sign-ins started in one browser (two tabs) both finish', async () => {
    const browser = new CookieJar();
    const first = await start(browser);
    const second = await start(browser);
    for (const request of [first, second]) {
      const res = await post(
        browser,
        idp.response(provider.service.entityID, provider.service.acsURL, {
          email: newEmail(),
          inResponseTo: request.id,
        }),
      );
      expect(res.status).toBe(303);
    }
  });
});
