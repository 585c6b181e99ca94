import type { ApiClient } from '../api/client';
import { ResourceStore } from '../stores/resource';
import {
  createTranslation,
  deleteTranslation,
  getTranslation,
  listGlossary,
  listTranslations,
  runTranslation,
  translationEngine,
  updateInstructions,
  type GlossaryEntry,
  type JSONDocument,
  type NewTranslation,
  type Translation,
  type TranslationEngine,
} from './translations-api';

/**
 * The translations and the glossary of organizations, for the signed-in account: one list per
 * organization (the space header's "does this space have translations?", the dialog's list and the
 * result space's badge read the same copy), and the writes that change it, each putting the
 * server's answer in. One set per API client, so another account never sees them.
 */
export class TranslationStores {
  /** Every translation of an organization, by organization id. */
  readonly list: ResourceStore<string, Translation[]>;
  /** The organization's glossary, by organization id. */
  readonly glossary: ResourceStore<string, GlossaryEntry[]>;
  /** The server's translation engine (null: none), as the organization's list says it. */
  readonly engine: ResourceStore<string, TranslationEngine | null>;

  constructor(private readonly api: ApiClient) {
    this.list = new ResourceStore((orgId) => listTranslations(api, orgId));
    this.glossary = new ResourceStore((orgId) => listGlossary(api, orgId));
    this.engine = new ResourceStore((orgId) => translationEngine(api, orgId));
  }

  /** Re-reads one translation (a run being followed) and puts it in its organization's list. */
  async refresh(orgId: string, id: string): Promise<Translation> {
    const translation = await getTranslation(this.api, orgId, id);
    this.put(orgId, translation);
    return translation;
  }

  async create(orgId: string, body: NewTranslation): Promise<Translation> {
    const translation = await createTranslation(this.api, orgId, body);
    this.put(orgId, translation);
    return translation;
  }

  async setInstructions(orgId: string, id: string, instructions: JSONDocument): Promise<Translation> {
    const translation = await updateInstructions(this.api, orgId, id, instructions);
    this.put(orgId, translation);
    return translation;
  }

  /** Queues a run, then reads the translation back: its run is now queued (or already running). */
  async run(orgId: string, id: string): Promise<Translation> {
    await runTranslation(this.api, orgId, id);
    return this.refresh(orgId, id);
  }

  async delete(orgId: string, id: string): Promise<void> {
    await deleteTranslation(this.api, orgId, id);
    this.list.update(orgId, (list) => list.filter((t) => t.id !== id));
  }

  /** Replaces (or adds) a translation in its organization's list, when that list is loaded. */
  private put(orgId: string, translation: Translation): void {
    this.list.update(orgId, (list) =>
      list.some((t) => t.id === translation.id)
        ? list.map((t) => (t.id === translation.id ? translation : t))
        : [...list, translation],
    );
  }
}

const byClient = new WeakMap<ApiClient, TranslationStores>();

export function translationStores(api: ApiClient): TranslationStores {
  let stores = byClient.get(api);
  if (!stores) {
    stores = new TranslationStores(api);
    byClient.set(api, stores);
  }
  return stores;
}
