import { ROLES, type Role } from '../../sync-server/policy/roles';
import { asRole, newUser } from './api';
import { addMember, newMember } from './members';
import type { TestServer } from './server';

/**
 * The columns of the authorization matrix: who calls. Each caller is a token
 * (or none) and, for a valid token, the user behind it. Expected outcomes are
 * computed from policy for that user (see authz-expect.ts), so a column needs
 * nothing but a way to mint its token: a new kind of token (an operator
 * token, a scoped token, ...) is one more entry of CALLER_SPECS and runs
 * against every operation and every sync document at once.
 */

export type CallerName = 'no token' | 'bad token' | 'other org admin' | 'guest' | 'guest admin of a collection' | Role;

export interface Caller {
  name: CallerName;
  /** The bearer token sent (null: no Authorization header at all). */
  token: string | null;
  /** The user behind a valid token; undefined when the server must answer 401. */
  userId?: string;
}

/** Where callers get their access: the matrix organization and the collection the invited guest administers. */
export interface CallerSetup {
  t: TestServer;
  organizationId: string;
  /** A collection of the organization; the invited guest joins it with `admin` through an invite link. */
  collectionId: string;
}

interface CallerSpec {
  name: CallerName;
  mint(setup: CallerSetup): Promise<Caller>;
}

/** A user with a personal API token who is a member of the organization with `role` (null: guest). */
const member =
  (name: CallerName, role: Role | null): CallerSpec['mint'] =>
  async ({ t, organizationId }) => {
    const user = await newMember(t, organizationId, role, `Matrix ${name}`);
    return { name, token: user.token, userId: user.id };
  };

/** Every column, in the order reports list them. */
export const CALLER_SPECS: CallerSpec[] = [
  { name: 'no token', mint: async () => ({ name: 'no token', token: null }) },
  // Well-formed but issued to nobody: must be as good as no token at all.
  { name: 'bad token', mint: async () => ({ name: 'bad token', token: 'folio_not_a_real_token_0123456789' }) },
  {
    // An admin elsewhere: must learn nothing about this organization (404, and 204 for DELETE).
    name: 'other org admin',
    mint: async ({ t }) => {
      const user = await newUser(t, 'Matrix other org admin');
      const other = await t.clientFor(user.token).orgs.createOrganization({ title: 'Another organization' });
      if (other.status !== 201) throw new Error(`createOrganization answered ${other.status}`);
      return { name: 'other org admin', token: user.token, userId: user.id };
    },
  },
  { name: 'guest', mint: member('guest', null) },
  {
    // A guest holding admin on one collection through an invite link (issue 13, defect 3): admin of that
    // content, nothing in the organization.
    name: 'guest admin of a collection',
    mint: async ({ t, organizationId, collectionId }) => {
      const user = await newUser(t, 'Matrix invited guest');
      const link = await t.client.orgs.createOrganizationInvite(organizationId, {
        level: asRole('admin'),
        collection: collectionId,
      });
      await t.clientFor(user.token).orgs.joinOrganizationWithInvite(organizationId, link.data.id);
      return { name: 'guest admin of a collection', token: user.token, userId: user.id };
    },
  },
  ...ROLES.map((role) => ({ name: role, mint: member(role, role) })),
];

/** Mints every caller of CALLER_SPECS, in order. */
export async function mintCallers(setup: CallerSetup): Promise<Caller[]> {
  const callers: Caller[] = [];
  for (const spec of CALLER_SPECS) callers.push(await spec.mint(setup));
  return callers;
}

/** Adds every caller with a user to another organization with `role` (the target of transfers). */
export async function addCallersTo(
  t: TestServer,
  organizationId: string,
  callers: Caller[],
  role: Role | null,
): Promise<void> {
  for (const c of callers) {
    if (c.userId && c.token) await addMember(t, organizationId, { id: c.userId, token: c.token, email: '' }, role);
  }
}

/** The caller named `name` (throws for a name the list lacks). */
export function callerNamed(callers: Caller[], name: CallerName): Caller {
  const caller = callers.find((c) => c.name === name);
  if (!caller) throw new Error(`no caller "${name}"`);
  return caller;
}
