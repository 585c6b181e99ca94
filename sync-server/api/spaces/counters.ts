import type { Queryable } from '../../store/db';
import { cachedQuery } from '../../store/read-cache';
import { NO_CHANGE_REQUESTS, type ChangeRequestCounters } from './present';

/**
 * Change-request counters of several spaces in one (read-cached) query, for
 * Space objects: total, open and draft change requests.
 */
export async function changeRequestCountersFor(
  db: Queryable,
  spaceIds: readonly string[],
): Promise<Map<string, ChangeRequestCounters>> {
  const out = new Map<string, ChangeRequestCounters>();
  if (spaceIds.length === 0) return out;
  const rows = await cachedQuery<{ space_id: string; total: number; open: number; draft: number }>(
    db,
    `SELECT space_id, count(*)::int AS total, (count(*) FILTER (WHERE status = 'open'))::int AS open, (count(*) FILTER (WHERE status = 'draft'))::int AS draft
       FROM change_requests WHERE space_id = ANY($1::text[]) GROUP BY space_id`,
    [[...spaceIds].sort()],
  );
  for (const r of rows)
    out.set(r.space_id, {
      changeRequests: Number(r.total),
      changeRequestsOpen: Number(r.open),
      changeRequestsDraft: Number(r.draft),
    });
  return out;
}

/** The counters of one space. */
export async function changeRequestCountersOf(db: Queryable, spaceId: string): Promise<ChangeRequestCounters> {
  return (await changeRequestCountersFor(db, [spaceId])).get(spaceId) ?? NO_CHANGE_REQUESTS;
}
