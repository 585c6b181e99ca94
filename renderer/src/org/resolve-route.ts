import { ApiError, describeError, type ApiClient } from '../api/client';
import type { SpaceRoute } from '../routes';

/** What a link by number or path resolved to, and why it opened less than asked, if it did. */
export interface ResolvedRoute {
  route: SpaceRoute;
  problem?: string;
}

/**
 * Turns the API's own links (`urls.app`) into ids the workspace opens: a change request by number
 * (`~/changes/<n>`, getChangeRequestById accepts the number) and a page by path (getPageByPath of
 * the space or of the change request). When a lookup fails, the space (or change request) itself
 * opens, with a message saying what was not found.
 */
export async function resolveSpaceRoute(api: ApiClient, route: SpaceRoute): Promise<ResolvedRoute> {
  const next: SpaceRoute = { view: 'space', spaceId: route.spaceId };
  if (route.changeRequestId) next.changeRequestId = route.changeRequestId;
  if (route.pageId) next.pageId = route.pageId;
  if (route.section) next.section = route.section;
  const problems: string[] = [];
  if (route.changeRequestNumber !== undefined) {
    try {
      const cr = await api.request<{ id: string }>(
        `/spaces/${route.spaceId}/change-requests/${route.changeRequestNumber}`,
      );
      next.changeRequestId = cr.id;
    } catch (err) {
      problems.push(`Change request #${route.changeRequestNumber}: ${notFound(err)}`);
    }
  }
  if (route.pagePath !== undefined) {
    const scope = next.changeRequestId
      ? `/spaces/${route.spaceId}/change-requests/${next.changeRequestId}`
      : `/spaces/${route.spaceId}`;
    const path = route.pagePath.split('/').map(encodeURIComponent).join('/');
    try {
      const page = await api.request<{ id: string }>(`${scope}/content/path/${path}`);
      next.pageId = page.id;
    } catch (err) {
      problems.push(`Page “${route.pagePath}”: ${notFound(err)}`);
      delete next.section;
    }
  }
  return problems.length ? { route: next, problem: problems.join('; ') } : { route: next };
}

function notFound(err: unknown): string {
  return err instanceof ApiError && err.status === 404 ? 'not found' : describeError(err);
}
