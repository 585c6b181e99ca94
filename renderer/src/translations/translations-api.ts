import { listAll, type ApiClient } from '../api/client';

/**
 * Translations as the app calls them: GitBook's translation operations under an organization
 * (`…/translations`, create / read / update instructions / delete, and a run), with the fields Folio
 * adds (`engine`, `run`), and the organization's glossary (`…/translations-glossary`, changed by one
 * PUT of operations).
 */

/** GitBook's JSONDocument, as far as instructions use it (paragraphs of text). */
export interface JSONDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: DocumentNode[];
}

/** A node of a document: a block or an inline holds `nodes`, a text holds `leaves`. */
export interface DocumentNode {
  object: string;
  type?: string;
  data?: Record<string, unknown>;
  nodes?: DocumentNode[];
  leaves?: { object: 'leaf'; text: string; marks: unknown[] }[];
}

export type TranslationStatus = 'pending' | 'running' | 'completed';
export type RunState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Folio: the newest run of a translation. */
export interface TranslationRun {
  id: string;
  state: RunState;
  createdAt: string;
  startedAt?: string;
  endedAt?: string;
  progress?: { pages: number; totalPages: number };
  error?: { code: string | number; message: string };
  /** Pages sent to the engine. */
  pages?: number;
  words?: number;
  /** Result pages edited by hand since the last run: left as they are, the new translation proposed in a change request. */
  review?: { changeRequest: string; pages: string[] };
}

/** Folio: the server's translation engine (null: none is configured, and runs fail). */
export interface TranslationEngine {
  kind: 'libretranslate' | 'openai';
  /** Whether it can follow instructions (the API refuses instructions with 400 when not). */
  instructions: boolean;
}

/** GitBook's Translation, with Folio's `engine` and `run`. */
export interface Translation {
  object: 'translation';
  id: string;
  status: TranslationStatus;
  source: { space: string; language: string };
  language: string;
  instructions: JSONDocument;
  result?: { space: string; revision: string; language?: string };
  createdAt: string;
  updatedAt: string;
  stats: {
    runs: number;
    totalWords: number;
    totalPages: number;
    totalDuration: number;
    latestRunDuration: number;
    latestPages: number;
    latestWords: number;
  };
  permissions: { view: boolean; edit: boolean };
  urls: { location: string };
  engine?: TranslationEngine | null;
  run?: TranslationRun;
}

/** One term in several languages (language code → term). */
export interface GlossaryEntry {
  object: 'glossary-entry';
  id: string;
  translations: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export type GlossaryOperation =
  | { type: 'insert'; translations: Record<string, string> }
  | { type: 'update'; id: string; translations: Record<string, string> }
  | { type: 'delete'; id: string };

export interface NewTranslation {
  language: string;
  source: { space: string; language: string };
  instructions?: JSONDocument;
}

const base = (orgId: string) => `/orgs/${encodeURIComponent(orgId)}/translations`;
const one = (orgId: string, id: string) => `${base(orgId)}/${encodeURIComponent(id)}`;
const glossary = (orgId: string) => `/orgs/${encodeURIComponent(orgId)}/translations-glossary`;

/** Every translation of the organization (the app filters them by source space). */
export function listTranslations(api: ApiClient, orgId: string): Promise<Translation[]> {
  return listAll<Translation>(api, base(orgId));
}

/** The server's engine, which the list carries (Folio): known before the organization has any translation. */
export async function translationEngine(api: ApiClient, orgId: string): Promise<TranslationEngine | null> {
  return (await api.request<{ engine: TranslationEngine | null }>(`${base(orgId)}?limit=1`)).engine;
}

export function getTranslation(api: ApiClient, orgId: string, id: string): Promise<Translation> {
  return api.request<Translation>(one(orgId, id));
}

/** Creates a translation; the server queues its first run. */
export function createTranslation(api: ApiClient, orgId: string, body: NewTranslation): Promise<Translation> {
  return api.request<Translation>(base(orgId), { method: 'POST', body });
}

export function updateInstructions(
  api: ApiClient,
  orgId: string,
  id: string,
  instructions: JSONDocument,
): Promise<Translation> {
  return api.request<Translation>(one(orgId, id), { method: 'PUT', body: { instructions } });
}

/** Deletes a translation (its result space stays, as an ordinary space). */
export function deleteTranslation(api: ApiClient, orgId: string, id: string): Promise<void> {
  return api.request<void>(one(orgId, id), { method: 'DELETE' });
}

/** Queues a run (409 when one is already queued or running). */
export function runTranslation(api: ApiClient, orgId: string, id: string): Promise<void> {
  return api.request<void>(`${one(orgId, id)}/run`, { method: 'POST' });
}

/** The glossary's entries, ordered by their term in `orderBy` when given. */
export function listGlossary(api: ApiClient, orgId: string, orderBy?: string): Promise<GlossaryEntry[]> {
  return listAll<GlossaryEntry>(api, glossary(orgId), { orderBy });
}

/** Applies inserts, updates and deletes to the glossary at once. */
export function changeGlossary(api: ApiClient, orgId: string, operations: GlossaryOperation[]): Promise<void> {
  return api.request<void>(glossary(orgId), { method: 'PUT', body: { operations } });
}
