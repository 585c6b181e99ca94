import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, newUser, raw, type TestUser } from '../helpers/api';
import { TestDnsServer } from '../helpers/dns-server';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Domain claims proved through DNS (a Folio extension): an organization's
 * admin claims a domain, publishes the TXT record the claim names, and asks
 * for verification; the server reads it through FOLIO_DNS_SERVERS, here an
 * authoritative DNS server the test runs on 127.0.0.1. A domain is verified
 * for one organization per instance; the instance admin may approve one
 * without DNS.
 */

interface Claim {
  domain: string;
  status: 'pending' | 'verified';
  verifiedBy?: 'dns' | 'admin';
  emailDomain: boolean;
  dnsRecord: { type: 'TXT'; name: string; value: string };
}

let t: TestServer;
let dns: TestDnsServer;
let orgId: string;
let otherOrgId: string;
let otherAdmin: TestUser;

beforeAll(async () => {
  dns = new TestDnsServer();
  await dns.listen();
  t = await startTestServer({ FOLIO_DNS_SERVERS: dns.address });
  orgId = (await t.client.orgs.createOrganization({ title: 'Proving Org', emailDomains: ['proved.test'] })).data.id;
  otherAdmin = await newUser(t, 'Other Admin');
  otherOrgId = (
    await t.clientFor(otherAdmin.token).orgs.createOrganization({ title: 'Rival', emailDomains: ['proved.test'] })
  ).data.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await dns?.close();
});

const admin = (method: string, path: string, body?: unknown, token: string = t.adminToken) =>
  raw(t, method, `/v1/orgs/${orgId}${path}`, { token, body });

describe('domain verification through DNS', () => {
  it('lists each declared email domain as a pending claim with the TXT record that proves it', async () => {
    const list = await admin('GET', '/domains');
    expect(list.status).toBe(200);
    const { items, count } = list.body as { items: Claim[]; count: number };
    expect(count).toBe(1);
    expect(items[0]).toMatchObject({ domain: 'proved.test', status: 'pending', emailDomain: true });
    expect(items[0]!.dnsRecord.name).toBe('_folio-verification.proved.test');
    expect(items[0]!.dnsRecord.value).toMatch(/^folio-verification=[A-Za-z0-9_-]{32}$/);
    // The rival's claim to the same domain has a token of its own: one organization's record proves nothing for another.
    const rival = await raw(t, 'GET', `/v1/orgs/${otherOrgId}/domains`, { token: otherAdmin.token });
    expect((rival.body as { items: Claim[] }).items[0]!.dnsRecord.value).not.toBe(items[0]!.dnsRecord.value);
  });

  it('refuses to verify until the record is published, saying what to publish and what it found', async () => {
    const missing = await admin('POST', '/domains/proved.test/verify');
    expectError(missing, 400, /publish a TXT record "folio-verification=.*" at _folio-verification\.proved\.test/);
    dns.publish('_folio-verification.proved.test', ['folio-verification=not-the-token'], ['v=spf1 -all']);
    const wrong = await admin('POST', '/domains/proved.test/verify');
    expectError(wrong, 400, /found: "folio-verification=not-the-token", "v=spf1 -all"/);
    expect(dns.asked.some((q) => q.name === '_folio-verification.proved.test' && q.type === 16)).toBe(true);
  });

  it('verifies a published record (also split into several strings), once for the whole instance', async () => {
    const claim = ((await admin('GET', '/domains')).body as { items: Claim[] }).items[0]!;
    const value = claim.dnsRecord.value;
    // Long TXT values arrive as several character-strings; they count joined.
    dns.publish(claim.dnsRecord.name, ['unrelated'], [value.slice(0, 10), value.slice(10)]);
    const verified = await admin('POST', '/domains/proved.test/verify');
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ domain: 'proved.test', status: 'verified', verifiedBy: 'dns' });
    // Verifying again is harmless.
    expect((await admin('POST', '/domains/proved.test/verify')).status).toBe(200);

    // The rival cannot verify it, even by publishing its own record, nor claim it anew elsewhere.
    const rivalClaim = (
      (await raw(t, 'GET', `/v1/orgs/${otherOrgId}/domains`, { token: otherAdmin.token })).body as { items: Claim[] }
    ).items[0]!;
    dns.publish(rivalClaim.dnsRecord.name, [value], [rivalClaim.dnsRecord.value]);
    const rivalVerify = await raw(t, 'POST', `/v1/orgs/${otherOrgId}/domains/proved.test/verify`, {
      token: otherAdmin.token,
    });
    expectError(rivalVerify, 409, /already verified by another organization/);
    const third = (await t.client.orgs.createOrganization({ title: 'Third' })).data.id;
    expectError(
      await raw(t, 'POST', `/v1/orgs/${third}/domains`, { token: t.adminToken, body: { domain: 'Proved.test' } }),
      409,
    );
  });

  it('answers 502 when DNS fails, and 404 for a domain the organization does not claim', async () => {
    const added = await admin('POST', '/domains', { domain: 'Broken.Test' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ domain: 'broken.test', status: 'pending', emailDomain: false });
    dns.failing.add('_folio-verification.broken.test');
    expectError(await admin('POST', '/domains/broken.test/verify'), 502, /DNS servers did not answer/);
    expectError(await admin('POST', '/domains/unclaimed.test/verify'), 404);
  });

  it('lets the instance admin approve without DNS, and nobody else', async () => {
    const editor = await newMember(t, orgId, 'edit', 'Editor');
    const orgAdmin = await newMember(t, orgId, 'admin', 'Org Admin');
    expectError(
      await admin('POST', '/domains/intranet.test/approve', undefined, orgAdmin.token),
      403,
      /instance admin/,
    );
    expectError(await admin('POST', '/domains/intranet.test/approve', undefined, editor.token), 403);
    const approved = await admin('POST', '/domains/intranet.test/approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ domain: 'intranet.test', status: 'verified', verifiedBy: 'admin' });
  });

  it('lets only the organization admins see and manage claims', async () => {
    const editor = await newMember(t, orgId, 'edit', 'Another Editor');
    expectError(await admin('GET', '/domains', undefined, editor.token), 403);
    expectError(await admin('POST', '/domains', { domain: 'x.test' }, editor.token), 403);
    expectError(await admin('POST', '/domains/proved.test/verify', undefined, editor.token), 403);
    expectError(await admin('DELETE', '/domains/proved.test', undefined, editor.token), 403);
    // An admin elsewhere learns nothing of this organization.
    expectError(await admin('GET', '/domains', undefined, otherAdmin.token), 404);
    expectError(await raw(t, 'GET', `/v1/orgs/${orgId}/domains`), 401);
  });

  it('refuses bad input in the error shape', async () => {
    for (const domain of ['localhost', '-bad.test', 'a..test', 'x'.repeat(64) + '.test', 'spaces here.test'])
      expectError(await admin('POST', '/domains', { domain }), 400);
    expectError(await admin('POST', '/domains', {}), 400);
    expectError(await admin('POST', '/domains', { domain: 'ok.test', extra: 1 }), 400);
    expectError(await admin('POST', '/domains/not_a_domain/verify'), 400);
  });

  it('drops a claim with its email domain (204, also when gone), and the domain acts for nobody then', async () => {
    const removed = await admin('DELETE', '/domains/proved.test');
    expect(removed.status).toBe(204);
    expect((await admin('DELETE', '/domains/proved.test')).status).toBe(204);
    const org = await admin('GET', '');
    expect((org.body as { emailDomains: string[] }).emailDomains).toEqual([]);
    const domains = ((await admin('GET', '/domains')).body as { items: Claim[] }).items.map((c) => c.domain);
    expect(domains).not.toContain('proved.test');
    // Free again: the rival may now prove it with its own record (published above).
    const rivalVerify = await raw(t, 'POST', `/v1/orgs/${otherOrgId}/domains/proved.test/verify`, {
      token: otherAdmin.token,
    });
    expect(rivalVerify.status).toBe(200);
  });
});
