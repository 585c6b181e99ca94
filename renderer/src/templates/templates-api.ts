import type { ApiClient } from '../api/client';

/** A built-in space template as `GET /v1/templates` lists it (a Folio extension). */
export interface SpaceTemplate {
  id: string;
  title: string;
  description: string;
  emoji: string;
  pages: { title: string; emoji?: string; pages: { title: string; emoji?: string }[] }[];
}

export async function listTemplates(api: ApiClient): Promise<SpaceTemplate[]> {
  return (await api.request<{ items: SpaceTemplate[] }>('/templates')).items;
}

/** GitBook's applyTemplateToSpace: the template's pages are appended to the space's, as one revision. */
export async function applyTemplate(api: ApiClient, spaceId: string, templateId: string): Promise<void> {
  await api.request(`/spaces/${spaceId}/content/template`, { method: 'POST', body: { id: templateId } });
}
