import type { AppContext } from '../../context';
import type { ContentNode } from '../../policy/access';
import { spacePermissions } from '../../policy/permissions';
import type { RoleOrNone } from '../../policy/roles';

export interface SpaceRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  edit_mode: string;
  language: string | null;
  default_level: string | null;
  position: string;
  revision: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  open_comments: number;
}

export const SPACE_COLUMNS =
  'id, organization_id, parent_id, title, emoji, visibility, edit_mode, language, default_level, position, revision, created_at, updated_at, deleted_at, open_comments';

/** The policy view of a space row. */
export function spaceNode(s: SpaceRow): ContentNode {
  return {
    type: 'space',
    id: s.id,
    organizationId: s.organization_id,
    parentId: s.parent_id,
    defaultLevel: s.default_level,
  };
}

/** Change-request counters shown on a Space. */
export interface ChangeRequestCounters {
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}
/** Before change requests are counted for a space (and for spaces that have none). */
export const NO_CHANGE_REQUESTS: ChangeRequestCounters = {
  changeRequests: 0,
  changeRequestsOpen: 0,
  changeRequestsDraft: 0,
};

/** Row -> API `Space`, with the caller's permissions. */
export function presentSpace(
  ctx: AppContext,
  s: SpaceRow,
  role: RoleOrNone,
  counters: ChangeRequestCounters = NO_CHANGE_REQUESTS,
) {
  return {
    object: 'space' as const,
    id: s.id,
    title: s.title,
    emoji: s.emoji ?? '',
    visibility: s.visibility,
    createdAt: s.created_at.toISOString(),
    updatedAt: s.updated_at.toISOString(),
    ...(s.deleted_at ? { deletedAt: s.deleted_at.toISOString() } : {}),
    editMode: s.edit_mode,
    mergeRules: { type: 'inherit' as const },
    // No `published`/`public` URLs: publishing happens through docs sites.
    urls: { location: ctx.urls.api(`/spaces/${s.id}`), app: ctx.urls.app(`/s/${s.id}`) },
    organization: s.organization_id,
    ...(s.parent_id ? { parent: s.parent_id } : {}),
    ...(s.language ? { language: s.language } : {}),
    revision: s.revision,
    defaultLevel: s.default_level as 'inherit' | null,
    comments: Number(s.open_comments),
    ...counters,
    permissions: spacePermissions(role, s.edit_mode === 'locked'),
  };
}
