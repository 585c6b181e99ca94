import { listAll, type ApiClient } from '../api/client';

/**
 * The OpenAPI specs group of the API (`/v1/orgs/{org}/openapi…`) as the app uses it: GitBook's
 * OpenAPISpec and OpenAPISpecVersion objects and the calls that read and write them.
 */

export type ProcessingState = 'pending' | 'progress' | 'complete';
export type ProcessErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';
export type SpecVisibility = 'private' | 'public';

/** GitBook's OpenAPISpec. */
export interface Spec {
  object: 'openapi-spec';
  id: string;
  createdAt: string;
  updatedAt: string;
  slug: string;
  /** Absent for a spec given as text (an upload). */
  sourceURL?: string;
  processingState: ProcessingState;
  visibility: SpecVisibility;
  lastVersion?: string;
  lastProcessedAt?: string;
  lastProcessErrorCode?: ProcessErrorCode;
  lastProcessedErrors?: { message: string; code?: string }[];
  lastProcessedErrorCount: number;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string; app: string; published?: string };
}

/** GitBook's OpenAPISpecVersion. */
export interface SpecVersion {
  object: 'openapi-spec-version';
  id: string;
  createdAt: string;
  url: string;
  urls: { location: string };
}

/** One file of a version's filesystem (the entry document, or an external file it references). */
export interface SpecFile {
  dir: string;
  isEntrypoint: boolean;
  references: string[];
  filename: string;
  specification: unknown;
}

/** GitBook's OpenAPISpecContent. */
export interface SpecContent {
  filesystem: Record<string, SpecFile>;
  urls: { source: string; public: string | null };
}

/** A spec's source: a URL the server fetches, or the document's text (an uploaded file). */
export type SpecSource = { url: string } | { text: string };

const base = (orgId: string) => `/orgs/${encodeURIComponent(orgId)}/openapi`;
const specPath = (orgId: string, slug: string) => `${base(orgId)}/${encodeURIComponent(slug)}`;

const all = <T>(api: ApiClient, path: string) => listAll<T>(api, path);

export const listSpecs = (api: ApiClient, orgId: string) => all<Spec>(api, base(orgId));

export const getSpec = (api: ApiClient, orgId: string, slug: string) => api.request<Spec>(specPath(orgId, slug));

/** Versions, newest first (the server's order). */
export const listVersions = (api: ApiClient, orgId: string, slug: string) =>
  all<SpecVersion>(api, `${specPath(orgId, slug)}/versions`);

export const getVersionContent = (api: ApiClient, orgId: string, slug: string, versionId: string) =>
  api.request<SpecContent>(`${specPath(orgId, slug)}/versions/${encodeURIComponent(versionId)}/content`);

export const createSpec = (api: ApiClient, orgId: string, slug: string, source: SpecSource) =>
  api.request<Spec>(base(orgId), { method: 'POST', body: { slug, source } });

/** Gives an existing spec a new source to process. */
export const updateSource = (api: ApiClient, orgId: string, slug: string, source: SpecSource) =>
  api.request<Spec>(specPath(orgId, slug), { method: 'PUT', body: { source } });

export const setVisibility = (api: ApiClient, orgId: string, slug: string, visibility: SpecVisibility) =>
  api.request<Spec>(specPath(orgId, slug), { method: 'PATCH', body: { visibility } });

export const deleteSpec = (api: ApiClient, orgId: string, slug: string) =>
  api.request<void>(specPath(orgId, slug), { method: 'DELETE' });
