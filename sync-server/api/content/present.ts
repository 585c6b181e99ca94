import type { AppContext } from '../../context';
import type { RevisionRecord, StoredPage } from '../../docs/revision-store';
import type { Storage } from '../../store/file-storage';
import type { StoredFile } from '../../docs/revision-view';

/** Where pages of this content live in the app. */
function appBase(ctx: AppContext, r: RevisionRecord): string {
  return r.changeRequestId ? ctx.urls.app(`/s/${r.spaceId}/cr/${r.changeRequestId}`) : ctx.urls.app(`/s/${r.spaceId}`);
}

/** A stored page (and its children) as the API's RevisionPage, with `urls`. */
export function presentPage(
  ctx: AppContext,
  r: RevisionRecord,
  page: StoredPage,
  extra: (p: StoredPage) => object = () => ({}),
): object {
  const base = appBase(ctx, r);
  const present = (p: StoredPage): object => ({
    ...p,
    ...extra(p),
    urls: { app: `${base}/${typeof p.path === 'string' ? p.path : p.id}` },
    pages: (p.pages ?? []).map(present),
  });
  return present(page);
}

/**
 * A stored file entry of the space `spaceId` as the API's RevisionFile, with its signed downloadURL (the digest
 * stays internal). The link serves the bytes only if the space's organization owns them, and expires: JSON
 * caches holding it key on `storage.linkEpoch()`.
 */
export function presentFile(storage: Storage, f: StoredFile, spaceId: string) {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: storage.downloadUrl(f, spaceId),
    size: f.size,
    ...(f.width !== undefined && f.height !== undefined ? { dimensions: { width: f.width, height: f.height } } : {}),
  };
}

/** A revision as the API's Revision object. */
export function presentRevision(ctx: AppContext, storage: Storage, r: RevisionRecord) {
  return {
    object: 'revision' as const,
    id: r.id,
    parents: r.parents,
    pages: r.pages.map((p) => presentPage(ctx, r, p)),
    files: (r.files as StoredFile[]).map((f) => presentFile(storage, f, r.spaceId)),
    reusableContents: r.reusableContents,
    // Folio has no page tags yet; GitBook's Revision requires the list.
    tags: [],
    variables: r.variables,
    createdAt: r.createdAt.toISOString(),
    type: r.type,
    urls: { app: appBase(ctx, r) },
  };
}
