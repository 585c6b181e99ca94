import type { Queryable } from './db';

/**
 * Which organizations own which blobs (`blob_owners`). Bytes are stored once
 * per content, so two organizations uploading the same file share one blob;
 * ownership is what keeps a digest learnt elsewhere from being a key to the
 * bytes: a download link serves a blob only to a space whose organization
 * owns it.
 */

/** Records that `organizationId` owns the blob `sha256` (an upload into it finished). */
export async function recordBlobOwner(db: Queryable, organizationId: string, sha256: string): Promise<void> {
  await db.query('INSERT INTO blob_owners (organization_id, sha256) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    organizationId,
    sha256,
  ]);
}

/** Whether the space `spaceId` (not deleted) belongs to an organization that owns the blob `sha256`. */
export async function spaceOwnsBlob(db: Queryable, spaceId: string, sha256: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM spaces s JOIN blob_owners b ON b.organization_id = s.organization_id
      WHERE s.id = $1 AND s.deleted_at IS NULL AND b.sha256 = $2`,
    [spaceId, sha256],
  );
  return rows.length > 0;
}

/**
 * Gives `toOrganizationId` the blobs of `fromOrganizationId` that the spaces
 * `spaceIds` use (in any revision, their change requests' included), so a
 * transferred space keeps its files. Only blobs the source organization owns
 * travel: a digest someone wrote into a space without owning the bytes gains
 * nothing from a transfer.
 */
export async function copyBlobOwnership(
  db: Queryable,
  fromOrganizationId: string,
  toOrganizationId: string,
  spaceIds: readonly string[],
): Promise<void> {
  if (spaceIds.length === 0) return;
  await db.query(
    `INSERT INTO blob_owners (organization_id, sha256)
     SELECT DISTINCT $2::text, b.sha256 FROM blob_owners b
      WHERE b.organization_id = $1
        AND b.sha256 IN (SELECT f->>'sha256' FROM revisions r, jsonb_array_elements(r.files) f
                          WHERE r.space_id = ANY($3::text[]))
     ON CONFLICT DO NOTHING`,
    [fromOrganizationId, toOrganizationId, spaceIds],
  );
}

/**
 * Records that `organizationId` owns each of `sha256s` before a batch that
 * uses them is applied (so a crash right after the batch's commit cannot leave
 * its files unowned); returns the digests whose rows this call created, which
 * `releaseBlobOwners` removes again if the batch is refused.
 */
export async function claimBlobOwners(
  db: Queryable,
  organizationId: string,
  sha256s: readonly string[],
): Promise<string[]> {
  if (sha256s.length === 0) return [];
  const rows = await db.query<{ sha256: string }>(
    `INSERT INTO blob_owners (organization_id, sha256)
     SELECT $1, s FROM unnest($2::text[]) AS s
     ON CONFLICT DO NOTHING RETURNING sha256`,
    [organizationId, [...new Set(sha256s)]],
  );
  return rows.map((r) => r.sha256);
}

/**
 * Removes ownership rows a refused batch created. A concurrent batch of the
 * same organization with the same bytes may have relied on one of them: it
 * records its owners again once applied (`recordBlobOwners`).
 */
export async function releaseBlobOwners(db: Queryable, organizationId: string, sha256s: readonly string[]) {
  if (sha256s.length === 0) return;
  await db.query('DELETE FROM blob_owners WHERE organization_id = $1 AND sha256 = ANY($2::text[])', [
    organizationId,
    sha256s,
  ]);
}

/** Records that `organizationId` owns each of `sha256s` (idempotent). */
export async function recordBlobOwners(db: Queryable, organizationId: string, sha256s: readonly string[]) {
  if (sha256s.length === 0) return;
  await db.query(
    `INSERT INTO blob_owners (organization_id, sha256)
     SELECT $1, s FROM unnest($2::text[]) AS s ON CONFLICT DO NOTHING`,
    [organizationId, [...new Set(sha256s)]],
  );
}

/**
 * Forgets every owner of a blob about to be deleted (by the collector of
 * unused blobs); returns the organizations, for `restoreBlobOwners` should
 * the blob be kept after all.
 */
export async function forgetBlobOwners(db: Queryable, sha256: string): Promise<string[]> {
  const rows = await db.query<{ organization_id: string }>(
    'DELETE FROM blob_owners WHERE sha256 = $1 RETURNING organization_id',
    [sha256],
  );
  return rows.map((r) => r.organization_id);
}

/** Gives a kept blob its owners back (see forgetBlobOwners). */
export async function restoreBlobOwners(db: Queryable, sha256: string, organizationIds: readonly string[]) {
  if (organizationIds.length === 0) return;
  await db.query(
    `INSERT INTO blob_owners (organization_id, sha256)
     SELECT o, $2 FROM unnest($1::text[]) AS o WHERE EXISTS (SELECT 1 FROM organizations WHERE id = o)
     ON CONFLICT DO NOTHING`,
    [organizationIds, sha256],
  );
}
