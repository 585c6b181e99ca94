import type { AppContext } from '../../context';
import { spacePermissions } from '../../policy/content';
import type { RoleOrNone } from '../../policy/roles';
import type { SpaceRow } from '../../store/spaces';
import { spaceResource } from '../../access/resources';

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
    // Folio: a translation's result space names it and its source (GitBook's Space has no such field).
    ...(s.translation_id && s.translation_source_id
      ? {
          translatedFrom: { translation: s.translation_id, space: s.translation_source_id, language: s.language ?? '' },
        }
      : {}),
    revision: s.revision,
    defaultLevel: s.default_level as 'inherit' | null,
    comments: Number(s.open_comments),
    ...counters,
    permissions: spacePermissions({ role }, spaceResource(s)),
  };
}
