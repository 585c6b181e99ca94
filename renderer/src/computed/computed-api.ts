import type { ApiClient } from '../api/client';
import type { ComputedSource } from '../../../shared/doc/computed';
import type { GeneratedPage } from './api-reference-model';

/**
 * GitBook's getComputedRevision as the app calls it: the pages a computed source generates, without
 * storing anything. The seed is the computed page's id, so the preview's page ids are the ones the
 * space's readers get (the server derives the ids of generated pages from it).
 */
export function computeRevision(
  api: ApiClient,
  spaceId: string,
  source: ComputedSource,
  seed: string,
): Promise<{ pages: GeneratedPage[] }> {
  return api.request<{ pages: GeneratedPage[] }>(`/spaces/${encodeURIComponent(spaceId)}/content/computed/revision`, {
    method: 'POST',
    body: { source, seed },
  });
}
