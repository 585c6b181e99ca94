import type {
  AccessTarget,
  Collection,
  DefaultLevel,
  InviteLink,
  Member,
  OrgDetails,
  Role,
  SpaceSummary,
  Team,
} from '../org/org-api';
import type { Stores } from './stores';

/**
 * The writes of the organization and account screens. Each one sends the request, then updates
 * (`set`/`update`) or invalidates every store whose data it changed, so every screen showing that
 * data follows without a reload: a new space appears on the home, a role change in every list,
 * a team's new member in its count.
 */

const orgPath = (orgId: string) => `/orgs/${orgId}`;
const targetPath = (t: AccessTarget) => ('space' in t ? `/spaces/${t.space}` : `/collections/${t.collection}`);

/** Creates an organization; the caller becomes its admin. */
export async function createOrganization(stores: Stores, title: string): Promise<OrgDetails> {
  const org = await stores.api.request<OrgDetails>('/orgs', { method: 'POST', body: { title } });
  stores.org.set(org.id, org);
  stores.orgs.invalidate('mine');
  return org;
}

/** Saves the organization's settings; the new name shows in its navigation and the window title at once. */
export async function saveOrgSettings(
  stores: Stores,
  orgId: string,
  settings: { title: string; defaultRole: Role | null; inviteLinks: boolean },
): Promise<OrgDetails> {
  const org = await stores.api.request<OrgDetails>(orgPath(orgId), { method: 'PATCH', body: settings });
  stores.org.set(orgId, org);
  stores.orgs.update('mine', (list) => list.map((o) => (o.id === orgId ? { ...o, title: org.title } : o)));
  return org;
}

/** Creates a space (in a collection when `parent` is given). */
export async function createSpace(
  stores: Stores,
  orgId: string,
  title: string,
  parent?: string,
): Promise<SpaceSummary> {
  const space = await stores.api.request<SpaceSummary>(`${orgPath(orgId)}/spaces`, {
    method: 'POST',
    body: parent ? { title, parent } : { title },
  });
  stores.orgSpaces.update(orgId, (list) => [...list.filter((s) => s.id !== space.id), space]);
  return space;
}

/** Creates a collection. */
export async function createCollection(stores: Stores, orgId: string, title: string): Promise<Collection> {
  const collection = await stores.api.request<Collection>(`${orgPath(orgId)}/collections`, {
    method: 'POST',
    body: { title },
  });
  stores.orgCollections.update(orgId, (list) => [...list.filter((c) => c.id !== collection.id), collection]);
  return collection;
}

/** What every member of the organization gets on a space or collection. */
export async function setDefaultLevel(
  stores: Stores,
  orgId: string,
  target: AccessTarget,
  defaultLevel: DefaultLevel,
): Promise<void> {
  await stores.api.request<unknown>(targetPath(target), { method: 'PATCH', body: { defaultLevel } });
  if ('space' in target) {
    stores.orgSpaces.update(orgId, (list) => list.map((s) => (s.id === target.space ? { ...s, defaultLevel } : s)));
    stores.space.invalidate(target.space);
  } else
    stores.orgCollections.update(orgId, (list) =>
      list.map((c) => (c.id === target.collection ? { ...c, defaultLevel } : c)),
    );
}

/** Changes a member's organization role. */
export async function setMemberRole(stores: Stores, orgId: string, userId: string, role: Role | null): Promise<Member> {
  const member = await stores.api.request<Member>(`${orgPath(orgId)}/members/${userId}`, {
    method: 'PATCH',
    body: { role },
  });
  stores.orgMembers.update(orgId, (list) => list.map((m) => (m.id === userId ? { ...m, role: member.role } : m)));
  return member;
}

/** Removes a member (or, for oneself, leaves the organization). */
export async function removeMember(stores: Stores, orgId: string, userId: string, self: boolean): Promise<void> {
  await stores.api.request<void>(`${orgPath(orgId)}/members/${userId}`, { method: 'DELETE' });
  stores.orgMembers.update(orgId, (list) => list.filter((m) => m.id !== userId));
  // Team counts include the member.
  stores.orgTeams.invalidate(orgId);
  if (self) {
    stores.orgs.invalidate('mine');
    stores.org.invalidate(orgId);
  }
}

/** Invites people by email: those with an account join at once, the others get an email. */
export async function inviteByEmail(
  stores: Stores,
  orgId: string,
  emails: string[],
  role: Role | null,
): Promise<{ users: string[]; invited: number }> {
  const result = await stores.api.request<{ users: string[]; invited: number }>(`${orgPath(orgId)}/invites`, {
    method: 'POST',
    body: { emails, role },
  });
  if (result.users.length > 0) stores.orgMembers.invalidate(orgId);
  return result;
}

/** Creates an invite link to the organization (`role`), or to a space or collection (`level`). */
export async function createInviteLink(
  stores: Stores,
  orgId: string,
  body: { role: Role | null } | { level: Role | null; space: string } | { level: Role | null; collection: string },
): Promise<InviteLink> {
  const link = await stores.api.request<InviteLink>(`${orgPath(orgId)}/link-invites`, { method: 'POST', body });
  // The answer may not name the space or collection's title: the list is read again.
  stores.orgInviteLinks.invalidate(orgId);
  return link;
}

export async function deleteInviteLink(stores: Stores, orgId: string, inviteId: string): Promise<void> {
  await stores.api.request<void>(`${orgPath(orgId)}/link-invites/${inviteId}`, { method: 'DELETE' });
  stores.orgInviteLinks.update(orgId, (list) => list.filter((l) => l.id !== inviteId));
}

/** Accepts an invite: the organization joins the caller's list. */
export async function joinWithInvite(stores: Stores, orgId: string, inviteId: string): Promise<void> {
  await stores.api.request<object>(`${orgPath(orgId)}/invites/${inviteId}`, { method: 'POST', body: {} });
  stores.orgs.invalidate('mine');
  stores.org.invalidate(orgId);
  stores.orgMembers.invalidate(orgId);
  stores.orgSpaces.invalidate(orgId);
}

export async function createTeam(stores: Stores, orgId: string, title: string, members: string[]): Promise<Team> {
  const team = await stores.api.request<Team>(`${orgPath(orgId)}/teams`, { method: 'PUT', body: { title, members } });
  stores.orgTeams.update(orgId, (list) => [...list.filter((t) => t.id !== team.id), team]);
  if (members.length > 0) stores.orgMembers.invalidate(orgId);
  return team;
}

export async function renameTeam(stores: Stores, orgId: string, teamId: string, title: string): Promise<Team> {
  const team = await stores.api.request<Team>(`${orgPath(orgId)}/teams/${teamId}`, {
    method: 'PATCH',
    body: { title },
  });
  stores.orgTeams.update(orgId, (list) => list.map((t) => (t.id === teamId ? { ...t, title: team.title } : t)));
  return team;
}

export async function deleteTeam(stores: Stores, orgId: string, teamId: string): Promise<void> {
  await stores.api.request<void>(`${orgPath(orgId)}/teams/${teamId}`, { method: 'DELETE' });
  stores.orgTeams.update(orgId, (list) => list.filter((t) => t.id !== teamId));
  stores.orgMembers.invalidate(orgId);
}

/** Adds a member to a team, or (`add` false) removes them; the team's count follows. */
export async function setTeamMembership(
  stores: Stores,
  orgId: string,
  teamId: string,
  userId: string,
  add: boolean,
): Promise<void> {
  await stores.api.request<void>(`${orgPath(orgId)}/teams/${teamId}/members/${userId}`, {
    method: add ? 'PUT' : 'DELETE',
    ...(add ? { body: {} } : {}),
  });
  stores.teamMembers.invalidate([orgId, teamId]);
  // The team's member count, and each member's team count, as the server now counts them.
  stores.orgTeams.invalidate(orgId);
  stores.orgMembers.invalidate(orgId);
}

/** Gives members or teams a role on a space or collection directly. */
export async function grantAccess(
  stores: Stores,
  target: AccessTarget,
  body: { role: Role; users?: string[]; teams?: string[] },
): Promise<void> {
  await stores.api.request<void>(`${targetPath(target)}/permissions`, { method: 'POST', body });
  stores.accessGrants.invalidate(target);
}

/** Changes the role of a direct grant. */
export async function setGrant(
  stores: Stores,
  target: AccessTarget,
  kind: 'users' | 'teams',
  id: string,
  role: Role,
): Promise<void> {
  await stores.api.request<void>(`${targetPath(target)}/permissions/${kind}/${id}`, {
    method: 'PATCH',
    body: { role },
  });
  stores.accessGrants.update(target, (grants) =>
    kind === 'users'
      ? { ...grants, users: grants.users.map((g) => (g.user.id === id ? { ...g, permission: role } : g)) }
      : { ...grants, teams: grants.teams.map((g) => (g.team.id === id ? { ...g, permission: role } : g)) },
  );
}

export async function removeGrant(
  stores: Stores,
  target: AccessTarget,
  kind: 'users' | 'teams',
  id: string,
): Promise<void> {
  await stores.api.request<void>(`${targetPath(target)}/permissions/${kind}/${id}`, { method: 'DELETE' });
  stores.accessGrants.update(target, (grants) =>
    kind === 'users'
      ? { ...grants, users: grants.users.filter((g) => g.user.id !== id) }
      : { ...grants, teams: grants.teams.filter((g) => g.team.id !== id) },
  );
}

/** Revokes one of the caller's tokens, sessions or devices: it stops working at once. */
export async function revokeCredential(stores: Stores, tokenId: string): Promise<void> {
  await stores.api.request<void>(`/user/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' });
  stores.credentials.update('mine', (list) => list.filter((c) => c.id !== tokenId));
}
