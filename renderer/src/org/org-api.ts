/**
 * The API objects of the organization screens, typed with the fields those screens read (the
 * server sends GitBook's full objects). The calls are the stores' (stores/stores.ts, org-writes.ts).
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
  permissions: {
    admin: boolean;
    view: boolean;
    createContent: boolean;
    listMembers: boolean;
    listTeams: boolean;
    /** Members (not guests) see the organization's integrations. */
    listIntegrations: boolean;
    /** Folio's OpenAPI specs rule (create role or admin); absent on servers without specs. */
    createOpenAPISpec?: boolean;
  };
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

/** A space or collection whose access is shown. */
export type AccessTarget = { space: string } | { collection: string };

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

/** The signed-in person (`GET /user`). */
export interface AccountUser {
  id: string;
  displayName: string;
  email?: string;
}

/** The direct grants of a space or collection: members and teams given a role on it. */
export interface Grants {
  users: UserGrant[];
  teams: TeamGrant[];
}

/** One credential of the signed-in person (`GET /v1/user/tokens`; never the secret). */
export interface Credential {
  id: string;
  label: string;
  createdAt: string;
  lastUsedAt?: string;
  /** 'api': a token for scripts; 'session': a web app sign-in (cookie); 'device': a desktop app. */
  kind?: 'api' | 'session' | 'device';
  expiresAt?: string | null;
  signInMethod?: string | null;
  userAgent?: string | null;
  /** Whether this is the credential the app itself uses. */
  current: boolean;
}

/** The URL a person opens to accept an invite link (the server's `urls.app` form). */
export function joinUrl(serverUrl: string, orgId: string, inviteId: string): string {
  return `${serverUrl}/app/join/${orgId}/${inviteId}`;
}

/** A role as people read it. */
export { roleLabel } from '../../../shared/roles';
