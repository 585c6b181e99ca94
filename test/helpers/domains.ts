import { raw } from './api';
import type { TestServer } from './server';

/**
 * Verifies `domain` for the organization as the instance admin vouching for
 * it (approveOrganizationDomain): what a test does when the domain's proof is
 * not the subject (domain-verification.test.ts proves it through DNS).
 */
export async function approveDomain(
  t: Pick<TestServer, 'url' | 'adminToken'>,
  organizationId: string,
  domain: string,
): Promise<void> {
  const res = await raw(t, 'POST', `/v1/orgs/${organizationId}/domains/${domain}/approve`, { token: t.adminToken });
  if (res.status !== 200)
    throw new Error(`approveOrganizationDomain answered ${res.status}: ${JSON.stringify(res.body)}`);
}
