import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newKeyPair, TestIdp } from '../helpers/saml-idp';
import { SamlVerifier } from '../../sync-server/identity/saml-verifier';
import type { SamlCheckInput } from '../../sync-server/identity/saml-check';
import {
  pendingSamlRequests,
  samlRequestCookie,
  startedInThisBrowser,
} from '../../sync-server/api/sign-in/saml-request-cookie';

/**
 * The SAML verifier's worker threads (real threads, real node-saml): a check
 * over its time budget terminates its thread and the next check gets a fresh
 * one; idle threads exit; a full queue answers "busy". And the cookie that
 * binds a sign-in to its browser, as an https server sets it.
 */

const settings = {
  acsURL: 'https://folio.example.test/auth/saml/p1/acs',
  entityID: 'https://folio.example.test/auth/saml/p1/metadata',
};
let idp: TestIdp;
let verifiers: SamlVerifier[] = [];

beforeAll(async () => {
  idp = new TestIdp(await newKeyPair());
});
afterEach(async () => {
  await Promise.all(verifiers.map((v) => v.close()));
  verifiers = [];
});

const verifier = (options: ConstructorParameters<typeof SamlVerifier>[0]) => {
  const v = new SamlVerifier(options);
  verifiers.push(v);
  return v;
};

function input(samlResponse: string): SamlCheckInput {
  return { ...settings, idpCert: idp.keys.cert, samlResponse };
}

const valid = (email = 'ada@corp.example') =>
  input(idp.response(settings.entityID, settings.acsURL, { email, inResponseTo: '_request' }));

/** An unsigned response with `count` empty elements: seconds of node-saml's work (quadratic), past any small budget. */
function wide(count: number): SamlCheckInput {
  const xml = Buffer.from(
    idp.response(settings.entityID, settings.acsURL, { sign: 'none', inResponseTo: '_request' }),
    'base64',
  ).toString('utf8');
  return input(
    Buffer.from(xml.replace(/(<saml:Issuer[^>]*>[^<]*<\/saml:Issuer>)/, `$1${'<a/>'.repeat(count)}`)).toString(
      'base64',
    ),
  );
}

describe('SamlVerifier', () => {
  it('checks a valid response in a thread and reads the person and the request it answers', async () => {
    const v = verifier({});
    const outcome = await v.verify(valid());
    expect(outcome).toMatchObject({
      outcome: 'checked',
      result: { ok: true, issuer: idp.entityID, inResponseTo: '_request', person: { email: 'ada@corp.example' } },
    });
    expect(v.threadCount).toBe(1);
  });

  it('terminates a thread whose check runs over the budget; the next check gets a fresh one', async () => {
    const v = verifier({ budgetMs: 300 });
    const t0 = performance.now();
    expect(await v.verify(wide(20_000))).toEqual({ outcome: 'timeout' });
    console.log(
      `a 20,000-element response refused at the 300 ms budget after ${(performance.now() - t0).toFixed(0)} ms (thread start included)`,
    );
    expect(v.threadCount).toBe(0);
    expect(await v.verify(valid('grace@corp.example'))).toMatchObject({
      outcome: 'checked',
      result: { ok: true, person: { email: 'grace@corp.example' } },
    });
  }, 60_000);

  it('refuses a response that waits too long for a thread as busy', async () => {
    const v = verifier({ budgetMs: 2_000, queueWaitMs: 300, maxThreads: 1 });
    await v.verify(valid()); // the thread has started
    const slow = v.verify(wide(20_000));
    expect(await v.verify(valid())).toEqual({ outcome: 'busy' });
    expect(await slow).toEqual({ outcome: 'timeout' });
  }, 60_000);

  it('lets an idle thread exit', async () => {
    const v = verifier({ idleMs: 100 });
    expect((await v.verify(valid())).outcome).toBe('checked');
    await vi.waitFor(() => expect(v.threadCount).toBe(0), { timeout: 10_000, interval: 50 });
  }, 30_000);

  it('answers failed once closed', async () => {
    const v = verifier({});
    await v.close();
    expect(await v.verify(valid())).toEqual({ outcome: 'failed' });
  });
});

describe('the SAML request cookie', () => {
  it('on https: SameSite=None; Secure (the IdP posts back cross-site), HttpOnly, on the provider path', () => {
    const cookie = samlRequestCookie('https://docs.example.com/folio', 'p1', [], '_abc', 600);
    expect(cookie).toMatch(/^folio_saml_request=[A-Za-z0-9_-]{22};/);
    expect(cookie).toContain('Path=/folio/auth/saml/p1');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=None/);
    expect(cookie).toContain('Max-Age=600');
  });

  it('holds the last four sign-ins of a browser, as digests', () => {
    let header = '';
    for (const id of ['_1', '_2', '_3', '_4', '_5']) {
      const cookie = samlRequestCookie('http://127.0.0.1:3000', 'p1', pendingSamlRequests(header), id, 600);
      header = cookie.split(';')[0]!;
    }
    const pending = pendingSamlRequests(`other=x; ${header}`);
    expect(pending).toHaveLength(4);
    expect(startedInThisBrowser(pending, '_1')).toBe(false);
    for (const id of ['_2', '_3', '_4', '_5']) expect(startedInThisBrowser(pending, id)).toBe(true);
    expect(header).not.toContain('_5');
    expect(pendingSamlRequests(undefined)).toEqual([]);
    expect(pendingSamlRequests('folio_saml_request=<script>.x')).toEqual([]);
  });
});
