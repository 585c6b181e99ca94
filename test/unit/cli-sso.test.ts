import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import { startServer } from '../../sync-server/server';
import { markSsoMember } from '../../sync-server/store/members';
import { updateOrganizationRow } from '../../sync-server/store/organizations';
import { issueCredential } from '../../sync-server/identity/sessions';
import { folio } from '../helpers/cli-process';

/**
 * The admin CLI and sign-in: a person whose organization requires SSO gets no
 * API token from `token create` (it would bypass the identity provider) once
 * the organization has proved it owns their domain (`domain approve`), and
 * `token list` tells API tokens, web sessions and devices apart.
 */
let dir: string;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('admin CLI and single sign-on', () => {
  it('refuses a token to a member who must use SSO, and lists kinds and expiries', async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-cli-sso-'));
    const add = await folio(dir, 'user', 'add', '--name', 'Sso Person', '--email', 'sso@x.test');
    expect(add.code, add.stderr).toBe(0);
    const userId = add.stdout.trim();
    const created = await folio(dir, 'token', 'create', '--user', 'sso@x.test');
    expect(created.code, created.stderr).toBe(0);

    // Their organization turns SSO on and flags them (the CLI has exited: the server may open the folder).
    const server = await startServer(
      loadConfig([], { FOLIO_PORT: '0', FOLIO_DATA_DIR: dir, FOLIO_LOG_LEVEL: 'silent' }),
    );
    let sessionExpiry: Date;
    let orgId: string;
    try {
      const res = await fetch(`${server.url}/v1/orgs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${created.stdout.trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'SSO Org' }),
      });
      expect(res.status).toBe(201);
      orgId = ((await res.json()) as { id: string }).id;
      await updateOrganizationRow(server.ctx.db, orgId, { sso: true });
      expect(await markSsoMember(server.ctx.db, orgId, userId)).toBe(true);
      sessionExpiry = (
        await issueCredential(server.ctx.db, userId, { kind: 'session', method: 'saml', now: new Date() })
      ).expiresAt;
    } finally {
      await server.close();
    }

    // Flagged, but their organization has not proved it owns x.test: the flag locks nobody out yet.
    const beforeProof = await folio(dir, 'token', 'create', '--user', 'sso@x.test');
    expect(beforeProof.code, beforeProof.stderr).toBe(0);
    expect((await folio(dir, 'domain', 'approve', orgId!, 'not a domain')).code).toBe(2);
    expect((await folio(dir, 'domain', 'approve', 'no-such-org', 'x.test')).code).toBe(1);
    const approved = await folio(dir, 'domain', 'approve', orgId!, 'X.test');
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout.trim()).toBe(`verified x.test for organization ${orgId!}`);
    const domains = await folio(dir, 'domain', 'list');
    expect(domains.stdout).toMatch(
      new RegExp(
        `${orgId!}\\s+x\\.test\\s+verified \\(admin\\)\\s+_folio-verification\\.x\\.test TXT "folio-verification=`,
      ),
    );

    const refused = await folio(dir, 'token', 'create', '--user', 'sso@x.test');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/sso@x\.test must sign in with their organization's single sign-on/);
    expect(refused.stdout).toBe('');

    const list = await folio(dir, 'token', 'list', '--user', userId);
    expect(list.code, list.stderr).toBe(0);
    const [header, ...rows] = list.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(/\s{2,}/));
    expect(header).toEqual(['ID', 'LABEL', 'CREATED', 'LAST USED', 'KIND', 'EXPIRES']);
    expect(rows.map((r) => [r[1], r[4], r[5]])).toEqual([
      ['cli', 'api', '-'],
      ['Web session', 'session', sessionExpiry!.toISOString()],
      ['cli', 'api', '-'],
    ]);
  }, 240_000);
});
