import { queryOne, type Queryable } from './db';

/** A signed upload slot, as `storage_uploads` holds it (`sha256` is set once the bytes arrived). */
export interface UploadRow {
  key: string;
  organization_id: string;
  name: string;
  content_type: string;
  declared_size: number;
  sha256: string | null;
}

/** Records an upload slot, before its URL is handed out. */
export async function insertUploadSlot(
  db: Queryable,
  slot: {
    key: string;
    organizationId: string;
    kind: string;
    name: string;
    contentType: string;
    declaredSize: number;
    createdBy: string;
    createdAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO storage_uploads (key, organization_id, kind, name, content_type, declared_size, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      slot.key,
      slot.organizationId,
      slot.kind,
      slot.name,
      slot.contentType,
      slot.declaredSize,
      slot.createdBy,
      slot.createdAt,
      slot.expiresAt,
    ],
  );
}

/** An upload slot by key, or undefined. */
export function loadUploadSlot(db: Queryable, key: string): Promise<UploadRow | undefined> {
  return queryOne<UploadRow>(
    db,
    'SELECT key, organization_id, name, content_type, declared_size, sha256 FROM storage_uploads WHERE key = $1',
    [key],
  );
}

/**
 * Fills an empty slot with the stored blob; false when it was already filled.
 * The `sha256 IS NULL` condition makes two PUTs racing on one slot claim it once.
 */
export async function claimUploadSlot(
  db: Queryable,
  key: string,
  blob: { sha256: string; size: number },
  at: Date,
): Promise<boolean> {
  const claimed = await db.query(
    'UPDATE storage_uploads SET sha256 = $2, size = $3, uploaded_at = $4 WHERE key = $1 AND sha256 IS NULL RETURNING key',
    [key, blob.sha256, blob.size, at],
  );
  return claimed.length > 0;
}
