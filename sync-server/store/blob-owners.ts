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
