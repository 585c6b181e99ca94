import type { ApiClient } from '../api/client';
import type { List } from '../api/types';

/**
 * The organization, member, team, invite and access calls of the organization screens, typed
 * with the fields those screens read (the server sends GitBook's full objects).
 */

import type { Role } from '../../../shared/roles';
/** A role in an organization, space or collection (shared/roles.ts); null: guest (sees only what is shared). */
export type { Role };
export { ROLES } from '../../../shared/roles';

/** Space and collection default levels: a role, `inherit` (from the parent collection) or null (no access). */
export type DefaultLevel = Role | 'inherit' | null;

export interface OrgDetails {
  id: string;
  title: string;
  defaultRole: Role | null;
  inviteLinks: boolean;
  urls: { app: string };
  permissions: { admin: boolean; view: boolean; createContent: boolean; listMembers: boolean; listTeams: boolean };
}

export interface Member {
  id: string;
  role: Role | null;
  user: { id: string; displayName: string; email?: string };
  joinedAt: string;
  teams: number;
}

export interface Team {
  id: string;
  title: string;
  members: number;
  spaces: number;
  permissions: { admin: boolean; view: boolean };
}

export interface SpaceSummary {
  id: string;
  title: string;
  emoji: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  urls: { app: string };
  permissions: { admin: boolean; edit: boolean; viewInviteLinks: boolean };
}

export interface Collection {
  id: string;
  title: string;
  description?: string;
  organization: string;
  parent?: string;
  defaultLevel: DefaultLevel;
  urls: { app: string };
  permissions: { view: boolean; admin: boolean; viewInviteLinks: boolean; create: boolean };
}

export interface Site {
  id: string;
  title: string;
  published: boolean;
  visibility: string;
  siteSpaces: number;
  urls: { app: string; published?: string; preview: string };
}

/** An invite link: to the organization (`role`), or to a space / collection (`level`). */
export interface InviteLink {
  id: string;
  role?: Role | null;
  level?: Role | null;
  space?: { id: string; title: string };
  collection?: { id: string; title: string };
}

/** The organization's part of the API, for one caller. */
export class OrgApi {
  constructor(
    readonly api: ApiClient,
    readonly orgId: string,
  ) {}

  private get base() {
    return `/orgs/${this.orgId}`;
  }

  org() {
    return this.api.request<OrgDetails>(this.base);
  }
  members() {
    return this.api.request<List<Member>>(`${this.base}/members`, {
      query: { limit: 1000, sort: 'name', order: 'asc' },
    });
  }
  setRole(userId: string, role: Role | null) {
    return this.api.request<Member>(`${this.base}/members/${userId}`, { method: 'PATCH', body: { role } });
  }
  removeMember(userId: string) {
    return this.api.request<void>(`${this.base}/members/${userId}`, { method: 'DELETE' });
  }
  inviteByEmail(emails: string[], role: Role | null) {
    return this.api.request<{ users: string[]; invited: number }>(`${this.base}/invites`, {
      method: 'POST',
      body: { emails, role },
    });
  }
  inviteLinks() {
    return this.api.request<List<InviteLink>>(`${this.base}/link-invites`, { query: { limit: 1000 } });
  }
  createInviteLink(
    body: { role: Role | null } | { level: Role | null; space: string } | { level: Role | null; collection: string },
  ) {
    return this.api.request<InviteLink>(`${this.base}/link-invites`, { method: 'POST', body });
  }
  deleteInviteLink(inviteId: string) {
    return this.api.request<void>(`${this.base}/link-invites/${inviteId}`, { method: 'DELETE' });
  }
  join(inviteId: string) {
    return this.api.request<object>(`${this.base}/invites/${inviteId}`, { method: 'POST', body: {} });
  }
  teams() {
    return this.api.request<List<Team>>(`${this.base}/teams`, { query: { limit: 1000 } });
  }
  createTeam(title: string, members: string[]) {
    return this.api.request<Team>(`${this.base}/teams`, { method: 'PUT', body: { title, members } });
  }
  renameTeam(teamId: string, title: string) {
    return this.api.request<Team>(`${this.base}/teams/${teamId}`, { method: 'PATCH', body: { title } });
  }
  deleteTeam(teamId: string) {
    return this.api.request<void>(`${this.base}/teams/${teamId}`, { method: 'DELETE' });
  }
  spaces() {
    return this.api.request<List<SpaceSummary>>(`${this.base}/spaces`, { query: { limit: 1000 } });
  }
  createSpace(title: string, parent?: string) {
    return this.api.request<SpaceSummary>(`${this.base}/spaces`, {
      method: 'POST',
      body: parent ? { title, parent } : { title },
    });
  }
  collections() {
    return this.api.request<List<Collection>>(`${this.base}/collections`, { query: { limit: 1000 } });
  }
  createCollection(title: string) {
    return this.api.request<Collection>(`${this.base}/collections`, { method: 'POST', body: { title } });
  }
  collection(collectionId: string) {
    return this.api.request<Collection>(`/collections/${collectionId}`);
  }
  collectionSpaces(collectionId: string) {
    return this.api.request<List<SpaceSummary>>(`/collections/${collectionId}/spaces`, { query: { limit: 1000 } });
  }
  setDefaultLevel(target: { space: string } | { collection: string }, defaultLevel: DefaultLevel) {
    const path = 'space' in target ? `/spaces/${target.space}` : `/collections/${target.collection}`;
    return this.api.request<unknown>(path, { method: 'PATCH', body: { defaultLevel } });
  }
  site(siteId: string) {
    return this.api.request<Site>(`${this.base}/sites/${siteId}`);
  }
  sites() {
    return this.api.request<List<Site>>(`${this.base}/sites`, { query: { limit: 1000 } });
  }
  teamMembers(teamId: string) {
    return this.api.request<List<TeamMember>>(`${this.base}/teams/${teamId}/members`, { query: { limit: 1000 } });
  }
  addTeamMember(teamId: string, userId: string) {
    return this.api.request<void>(`${this.base}/teams/${teamId}/members/${userId}`, { method: 'PUT', body: {} });
  }
  removeTeamMember(teamId: string, userId: string) {
    return this.api.request<void>(`${this.base}/teams/${teamId}/members/${userId}`, { method: 'DELETE' });
  }
  /** Direct grants of members (`users`) or teams on a space or collection. */
  grants<K extends 'users' | 'teams'>(target: AccessTarget, kind: K) {
    return this.api.request<List<K extends 'users' ? UserGrant : TeamGrant>>(
      `${targetPath(target)}/permissions/${kind}`,
      {
        query: { limit: 1000 },
      },
    );
  }
  grant(target: AccessTarget, body: { role: Role; users?: string[]; teams?: string[] }) {
    return this.api.request<void>(`${targetPath(target)}/permissions`, { method: 'POST', body });
  }
  setGrant(target: AccessTarget, kind: 'users' | 'teams', id: string, role: Role) {
    return this.api.request<void>(`${targetPath(target)}/permissions/${kind}/${id}`, {
      method: 'PATCH',
      body: { role },
    });
  }
  removeGrant(target: AccessTarget, kind: 'users' | 'teams', id: string) {
    return this.api.request<void>(`${targetPath(target)}/permissions/${kind}/${id}`, { method: 'DELETE' });
  }
}

/** A space or collection whose access is shown. */
export type AccessTarget = { space: string } | { collection: string };

function targetPath(target: AccessTarget): string {
  return 'space' in target ? `/spaces/${target.space}` : `/collections/${target.collection}`;
}

export interface TeamMember {
  organization: Member;
  team: { role: 'owner' | 'member' };
}

export interface UserGrant {
  permission: Role;
  user: { id: string; displayName: string; email?: string };
}

export interface TeamGrant {
  permission: Role;
  team: Team;
}

/** One of the caller's API tokens (Folio's `/user/tokens`; never the secret). */
export interface ApiToken {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt?: string;
  current: boolean;
}

export function userTokens(api: ApiClient) {
  return api.request<{ items: ApiToken[]; count: number }>('/user/tokens');
}

export function revokeUserToken(api: ApiClient, tokenId: string) {
  return api.request<void>(`/user/tokens/${encodeURIComponent(tokenId)}`, { method: 'DELETE' });
}

/** Creates an organization; the caller becomes its admin. */
export function createOrganization(api: ApiClient, title: string) {
  return api.request<OrgDetails>('/orgs', { method: 'POST', body: { title } });
}

/** The URL a person opens to accept an invite link (the server's `urls.app` form). */
export function joinUrl(serverUrl: string, orgId: string, inviteId: string): string {
  return `${serverUrl}/app/join/${orgId}/${inviteId}`;
}

/** A role as people read it. */
export { roleLabel } from '../../../shared/roles';
