import type { ApiClient } from '../api/client';
import * as specs from '../openapi/openapi-api';
import type { Spec, SpecSource, SpecVersion, SpecVisibility } from '../openapi/openapi-api';
import { ResourceStore } from './resource';

const pair = { keyOf: (key: [string, string]) => key.join('/') };

/**
 * An organization's OpenAPI specs: the list, one spec and its versions, and the writes that change
 * them. Each write puts the server's answer in the list and the spec's own copy, so the list and
 * the detail screen show the same state; processing then runs on the server, and the screens poll
 * (`refresh`) until it is complete.
 */
export class OpenApiStores {
  /** The organization's specs, by organization. */
  readonly list: ResourceStore<string, Spec[]>;
  /** One spec, by [organization, slug]. */
  readonly spec: ResourceStore<[string, string], Spec>;
  /** A spec's versions, newest first, by [organization, slug]. */
  readonly versions: ResourceStore<[string, string], SpecVersion[]>;

  constructor(private readonly api: ApiClient) {
    this.list = new ResourceStore((orgId) => specs.listSpecs(api, orgId));
    this.spec = new ResourceStore(([orgId, slug]) => specs.getSpec(api, orgId, slug), pair);
    this.versions = new ResourceStore(([orgId, slug]) => specs.listVersions(api, orgId, slug), pair);
  }

  /** The server answered `spec` (a write, a poll): its copy and its row in the list follow. */
  changed(orgId: string, spec: Spec): void {
    const old = this.spec.peek([orgId, spec.slug]);
    this.spec.set([orgId, spec.slug], spec);
    this.list.update(orgId, (list) =>
      list.some((s) => s.id === spec.id) ? list.map((s) => (s.id === spec.id ? spec : s)) : [...list, spec],
    );
    // A new version appeared: the versions list is out of date.
    if (old && old.lastVersion !== spec.lastVersion) this.versions.invalidate([orgId, spec.slug]);
  }

  async create(orgId: string, slug: string, source: SpecSource): Promise<Spec> {
    const spec = await specs.createSpec(this.api, orgId, slug, source);
    this.changed(orgId, spec);
    return spec;
  }

  async updateSource(orgId: string, slug: string, source: SpecSource): Promise<Spec> {
    const spec = await specs.updateSource(this.api, orgId, slug, source);
    this.changed(orgId, spec);
    return spec;
  }

  async setVisibility(orgId: string, slug: string, visibility: SpecVisibility): Promise<Spec> {
    const spec = await specs.setVisibility(this.api, orgId, slug, visibility);
    this.changed(orgId, spec);
    return spec;
  }

  /**
   * Deletes a spec: it leaves the list at once. Its own copies are dropped by `forget`, once the
   * screen showing it has gone (dropped while shown, they would be fetched again, and not found).
   */
  async remove(orgId: string, slug: string): Promise<void> {
    await specs.deleteSpec(this.api, orgId, slug);
    this.list.update(orgId, (list) => list.filter((s) => s.slug !== slug));
  }

  /** Drops a spec's copies (after `remove`), so a new spec of the same slug is read afresh. */
  forget(orgId: string, slug: string): void {
    this.spec.invalidate([orgId, slug]);
    this.versions.invalidate([orgId, slug]);
  }

  /** Re-reads the list while some spec of it is processing (the list screen's poll). */
  async refreshList(orgId: string): Promise<void> {
    const fresh = await specs.listSpecs(this.api, orgId);
    for (const spec of fresh) {
      const old = this.spec.peek([orgId, spec.slug]);
      if (old) this.changed(orgId, spec);
    }
    this.list.set(orgId, fresh);
  }

  /** Re-reads one spec while it is processing (the detail screen's poll). */
  async refreshSpec(orgId: string, slug: string): Promise<void> {
    this.changed(orgId, await specs.getSpec(this.api, orgId, slug));
  }
}
